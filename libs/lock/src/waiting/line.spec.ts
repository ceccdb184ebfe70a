import { Lines, type Turn } from './line';

/** A deadline `ms` from now. */
const within = (ms: number) => performance.now() + ms;
const taker = (owner: string, strategy = 'owner-checked') => ({ strategy, owner, leaseMs: 1000 });

describe('Lines', () => {
  it('makes the first the front at once and the rest wait in arrival order, each becoming the front in turn', async () => {
    const lines = new Lines(0);
    expect(await lines.join('k', taker('a'), within(1000))).toEqual({ by: 'front' });
    const turns: string[] = [];
    const waits = ['b', 'c'].map((owner) =>
      lines.join('k', taker(owner), within(1000)).then((turn) => void turns.push(`${owner} ${turn.by}`)),
    );
    expect(lines.waiting('k')).toBe(2);
    expect(await lines.join('other', taker('x'), within(1000))).toEqual({ by: 'front' }); // lines of keys apart
    lines.pass('k');
    await Promise.resolve();
    lines.pass('k');
    await Promise.all(waits);
    expect(turns).toEqual(['b front', 'c front']);
    lines.pass('k');
    expect(await lines.join('k', taker('d'), within(0))).toEqual({ by: 'front' }); // the line emptied
  });

  it('times a waiter out with what the front last saw of the holder', async () => {
    const lines = new Lines(0);
    await lines.join('k', taker('a'), within(1000));
    lines.noteHolderTtl('k', 5000);
    const turn = await lines.join('k', taker('c'), within(20));
    expect(turn.by).toBe('timeout');
    expect((turn as Turn & { by: 'timeout' }).holderTtlMs).toBeGreaterThan(4900);
    expect(lines.waiting('k')).toBe(0);
    lines.noteHolderTtl('k', -1); // no expiry: nothing to tell
    expect(await lines.join('k', taker('e'), within(20))).toEqual({ by: 'timeout' });
  });

  it('sends a waiter with no time to wait behind the front to its one attempt, outside the line', async () => {
    const lines = new Lines(0);
    await lines.join('k', taker('a'), within(1000));
    expect(await lines.join('k', taker('b'), within(0))).toEqual({ by: 'once' });
    expect(lines.waiting('k')).toBe(0);
  });

  it('lets an aborted waiter leave at once; an already aborted one never joins', async () => {
    const lines = new Lines(0);
    await lines.join('k', taker('a'), within(1000));
    const controller = new AbortController();
    const waiting = lines.join('k', taker('b'), within(10_000), controller.signal);
    controller.abort();
    expect(await waiting).toEqual({ by: 'abort' });
    expect(await lines.join('k', taker('c'), within(10_000), controller.signal)).toEqual({ by: 'abort' });
    expect(lines.waiting('k')).toBe(0);
  });

  it('hands off to the next waiter of the same strategy, at most `limit` times in a row', async () => {
    const lines = new Lines(2);
    await lines.join('k', taker('a'), within(1000));
    const turns = ['b', 'c', 'd'].map((owner) => lines.join('k', taker(owner), within(10_000)));
    for (const _ of [1, 2]) {
      const next = lines.takeNext('k', 'owner-checked')!;
      lines.handedTo('k', next, { by: 'handoff', fenceToken: 7 });
    }
    expect(lines.takeNext('k', 'owner-checked')).toBeUndefined(); // at the limit of hand-offs in a row
    lines.pass('k'); // a real release: the next is the front, and the count starts again
    expect(await Promise.all(turns)).toEqual([
      { by: 'handoff', fenceToken: 7 },
      { by: 'handoff', fenceToken: 7 },
      { by: 'front' },
    ]);
    const e = lines.join('k', taker('e', 'fenced'), within(10_000));
    expect(lines.takeNext('k', 'owner-checked')).toBeUndefined(); // another strategy's waiter
    lines.pass('k');
    expect(await e).toEqual({ by: 'front' });
  });

  it("keeps a taker's wait open while its hand-off is in flight, and puts it back first in line when refused", async () => {
    const lines = new Lines(5);
    await lines.join('k', taker('a'), within(1000));
    const controller = new AbortController();
    const b = lines.join('k', taker('b'), within(10_000), controller.signal);
    const c = lines.join('k', taker('c'), within(10_000));
    const next = lines.takeNext('k', 'owner-checked')!;
    expect(next.owner).toBe('b');
    lines.putBack('k', next); // refused: b is first again
    expect(lines.takeNext('k', 'owner-checked')!.owner).toBe('b');
    controller.abort(); // while taken: the outcome decides
    lines.putBack('k', next);
    expect(await b).toEqual({ by: 'abort' });
    lines.pass('k');
    expect(await c).toEqual({ by: 'front' });
  });
});
