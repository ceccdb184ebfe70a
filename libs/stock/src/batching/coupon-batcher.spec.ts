import { CouponBatcher, type BatchOutcome } from './coupon-batcher';

const STATEMENT_MS = 10;

/** A fake statement that takes STATEMENT_MS of fake time and grants while its stock lasts. */
function fakeStore(stock: number, opts: { retryFirst?: string } = {}) {
  const batches: string[][] = [];
  let committed = 0;
  const statement = async (_key: number, users: readonly string[]): Promise<BatchOutcome<string>[]> => {
    batches.push([...users]);
    await new Promise((r) => setTimeout(r, STATEMENT_MS));
    return users.map((u) => {
      if (u === opts.retryFirst && batches.length === 1) return { kind: 'retry' };
      if (u.startsWith('dup')) return { kind: 'error', error: new Error(`duplicate ${u}`) };
      if (stock === 0) return { kind: 'answer', value: 'sold-out' };
      stock--;
      committed++;
      return { kind: 'answer', value: `granted ${u}` };
    });
  };
  return { batches, statement, committed: () => committed };
}

describe('CouponBatcher (fake clock)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('the first request runs alone; those arriving meanwhile go together in the next statement', async () => {
    const store = fakeStore(100);
    const batcher = new CouponBatcher(store.statement);
    const first = batcher.submit(1, 'u0');
    const rest = ['u1', 'u2', 'u3'].map((u) => batcher.submit(1, u));
    expect(batcher.state(1)).toEqual({ queued: 3, inFlight: true });
    await jest.advanceTimersByTimeAsync(STATEMENT_MS);
    await expect(first).resolves.toBe('granted u0');
    expect(batcher.state(1)).toEqual({ queued: 0, inFlight: true });
    await jest.advanceTimersByTimeAsync(STATEMENT_MS);
    await expect(Promise.all(rest)).resolves.toEqual(['granted u1', 'granted u2', 'granted u3']);
    expect(store.batches).toEqual([['u0'], ['u1', 'u2', 'u3']]);
    expect(batcher.state(1)).toEqual({ queued: 0, inFlight: false });
  });

  it('answers only once the statement has settled', async () => {
    const store = fakeStore(1);
    const batcher = new CouponBatcher(store.statement);
    let answered = false;
    void batcher.submit(7, 'u0').then(() => (answered = true));
    await jest.advanceTimersByTimeAsync(STATEMENT_MS - 1);
    expect(answered).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(answered).toBe(true);
    expect(store.committed()).toBe(1);
  });

  it('caps a batch at maxBatch and keeps the order of arrival', async () => {
    const store = fakeStore(1000);
    const batcher = new CouponBatcher(store.statement, 4);
    const all = Array.from({ length: 11 }, (_, i) => batcher.submit(1, `u${i}`));
    await jest.advanceTimersByTimeAsync(STATEMENT_MS * 4);
    await Promise.all(all);
    expect(store.batches.map((b) => b.length)).toEqual([1, 4, 4, 2]);
    expect(store.batches.flat()).toEqual(Array.from({ length: 11 }, (_, i) => `u${i}`));
  });

  it('each caller gets its own outcome, a batch straddling sold out included', async () => {
    const store = fakeStore(2);
    const batcher = new CouponBatcher(store.statement);
    const answers = ['u0', 'u1', 'dup1', 'u2'].map((u) => batcher.submit(1, u).catch((e: Error) => e.message));
    await jest.advanceTimersByTimeAsync(STATEMENT_MS * 2);
    expect(await Promise.all(answers)).toEqual(['granted u0', 'granted u1', 'duplicate dup1', 'sold-out']);
  });

  it('queues an unjudged request again, ahead of the newcomers', async () => {
    const store = fakeStore(10, { retryFirst: 'u0' });
    const batcher = new CouponBatcher(store.statement);
    const first = batcher.submit(1, 'u0');
    const late = batcher.submit(1, 'u1');
    await jest.advanceTimersByTimeAsync(STATEMENT_MS * 2);
    await expect(Promise.all([first, late])).resolves.toEqual(['granted u0', 'granted u1']);
    expect(store.batches).toEqual([['u0'], ['u0', 'u1']]);
  });

  it('a failed statement fails its whole batch, and the next batch still runs', async () => {
    let calls = 0;
    const batcher = new CouponBatcher<number, string, string>(async (_k, users) => {
      calls++;
      await new Promise((r) => setTimeout(r, STATEMENT_MS));
      if (calls === 1) throw new Error('database down');
      return users.map((u) => ({ kind: 'answer', value: u }));
    });
    const failed = batcher.submit(1, 'a').catch((e: Error) => e.message);
    const next = batcher.submit(1, 'b');
    await jest.advanceTimersByTimeAsync(STATEMENT_MS * 2);
    expect(await failed).toBe('database down');
    await expect(next).resolves.toBe('b');
  });

  it('keys run independently, and onTaken runs before the statement', async () => {
    const events: string[] = [];
    const batcher = new CouponBatcher<number, string, string>(async (key, users) => {
      events.push(`statement ${key}`);
      await new Promise((r) => setTimeout(r, STATEMENT_MS));
      return users.map((u) => ({ kind: 'answer', value: u }));
    });
    const a = batcher.submit(1, 'a', () => events.push('taken a'));
    const b = batcher.submit(2, 'b', () => events.push('taken b'));
    expect(batcher.state(1).inFlight && batcher.state(2).inFlight).toBe(true);
    await jest.advanceTimersByTimeAsync(STATEMENT_MS);
    await expect(Promise.all([a, b])).resolves.toEqual(['a', 'b']);
    expect(events).toEqual(['taken a', 'statement 1', 'taken b', 'statement 2']);
  });

  it('refuses a batch size below 1', () => {
    expect(() => new CouponBatcher(() => Promise.resolve([]), 0)).toThrow(RangeError);
  });
});
