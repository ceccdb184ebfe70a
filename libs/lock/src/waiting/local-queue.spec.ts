import { HandoffSlot } from './handoff-slot';
import { DEFAULT_LONGEST_RUN, HANDOFF_WINDOW_MS, LocalQueue } from './local-queue';

describe('LocalQueue', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('admits the first at once and the rest in arrival order', async () => {
    const queue = new LocalQueue();
    const order: number[] = [];
    const places = [0, 1, 2].map((i) => {
      const place = queue.enter('k', 1000);
      void place.turn.then((head) => head && order.push(i));
      return place;
    });
    await Promise.resolve();
    expect(order).toEqual([0]);
    places[0].leave();
    await Promise.resolve();
    expect(order).toEqual([0, 1]);
    places[1].leave();
    await Promise.resolve();
    expect(order).toEqual([0, 1, 2]);
    places[2].leave();
    expect(queue.length('k')).toBe(0);
  });

  it('keeps lines of different keys apart', async () => {
    const queue = new LocalQueue();
    queue.enter('a', 1000);
    await expect(queue.enter('b', 1000).turn).resolves.toBe(true);
  });

  it('times out a waiter that never reaches the head, and removes it from the line', async () => {
    const queue = new LocalQueue();
    const head = queue.enter('k', 1000);
    const late = queue.enter('k', 50);
    const after = queue.enter('k', 1000);
    jest.advanceTimersByTime(50);
    await expect(late.turn).resolves.toBe(false);
    expect(queue.length('k')).toBe(2);
    head.leave();
    await expect(after.turn).resolves.toBe(true);
  });

  it("tells a head its time is up, by the place's one timer, and leaves it in line (a head leaves by itself)", async () => {
    const queue = new LocalQueue();
    const head = queue.enter('k', 50);
    const next = queue.enter('k', 1000);
    let told = false;
    void head.expired().then(() => (told = true));
    jest.advanceTimersByTime(49);
    await Promise.resolve();
    expect(told).toBe(false);
    jest.advanceTimersByTime(1);
    await Promise.resolve();
    expect(told).toBe(true);
    expect(head.timedOut()).toBe(true);
    await expect(head.expired()).resolves.toBeUndefined(); // asked late: settled already
    expect(queue.length('k')).toBe(2);
    head.leave();
    await expect(next.turn).resolves.toBe(true);
    expect(next.timedOut()).toBe(false);
  });

  it('sets a timer only for a place behind someone, or a head that asks when its time is up; never for an endless wait', () => {
    const queue = new LocalQueue();
    const head = queue.enter('k', 1000); // uncontended: no timer to set and clear
    expect(jest.getTimerCount()).toBe(0);
    queue.enter('k', 1000);
    expect(jest.getTimerCount()).toBe(1);
    queue.enter('k', Infinity); // Node would fire a timer of Infinity ms at once
    expect(jest.getTimerCount()).toBe(1);
    void head.expired();
    expect(jest.getTimerCount()).toBe(2);
  });

  it('a waiter that leaves before its turn is skipped', async () => {
    const queue = new LocalQueue();
    const head = queue.enter('k', 1000);
    const quitter = queue.enter('k', 1000);
    const next = queue.enter('k', 1000);
    quitter.leave();
    head.leave();
    await expect(next.turn).resolves.toBe(true);
    jest.advanceTimersByTime(2000); // the quitter's timer was cleared: nothing left pending
    expect(queue.length('k')).toBe(1);
  });

  it('leave is idempotent: a second leave does not evict the new head', async () => {
    const queue = new LocalQueue();
    const head = queue.enter('k', 1000);
    const next = queue.enter('k', 1000);
    head.leave();
    head.leave();
    await expect(next.turn).resolves.toBe(true);
    expect(queue.length('k')).toBe(1);
  });

  it('remembers what is left of the holder TTL the head saw, for waiters that time out queued', () => {
    const queue = new LocalQueue();
    const head = queue.enter('k', 1000);
    queue.noteHolderTtl('k', 500, 1000);
    expect(queue.holderTtl('k', 1200)).toBe(300);
    expect(queue.holderTtl('k', 1600)).toBeUndefined();
    queue.noteHolderTtl('k', -1, 1600); // no expiry: nothing to promise
    expect(queue.holderTtl('k', 1600)).toBeUndefined();
    head.leave();
    queue.enter('k', 1000);
    expect(queue.holderTtl('k', 1000)).toBeUndefined(); // forgotten with the line
  });
});

describe('LocalQueue hand-offs', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A queue with this hand-off limit whose head, on key 'k', offers a slot of kind 'x'. */
  async function headOffering(limit?: number): Promise<LocalQueue> {
    const queue = new LocalQueue(limit);
    const head = queue.enter('k', 1000);
    await head.turn;
    head.offer(new HandoffSlot('x', 'w', 1000));
    return queue;
  }

  it("offers the head's slot to a holder of the same kind only", async () => {
    const queue = new LocalQueue(8);
    const head = queue.enter('k', 1000);
    const second = queue.enter('k', 1000);
    await head.turn;
    const slot = new HandoffSlot('owner-checked', 'w', 1000);
    head.offer(slot);
    second.offer(new HandoffSlot('owner-checked', 'not-head', 1000)); // ignored: not at the head
    expect(queue.claimable('k', 'owner-checked')).toBe(slot);
    expect(queue.claimable('k', 'watchdog')).toBeUndefined();
    expect(queue.claimable('other', 'owner-checked')).toBeUndefined();
    slot.close();
    expect(queue.claimable('k', 'owner-checked')).toBeUndefined();
  });

  it('refuses the hand-off after `limit` in a row, once, then counts again', async () => {
    const queue = await headOffering(2);
    const pattern: boolean[] = [];
    for (let i = 0; i < 6; i += 1) {
      const slot = queue.claimable('k', 'x');
      pattern.push(slot !== undefined);
      if (slot) queue.handedOff('k');
    }
    expect(pattern).toEqual([true, true, false, true, true, false]);
  });

  it('keeps counting when each taker empties the line as it leaves with the lock', async () => {
    // One looping waiter per process: the taker is the whole line, and leaves it holding.
    const queue = new LocalQueue(2);
    const pattern: boolean[] = [];
    for (let i = 0; i < 3; i += 1) {
      const taker = queue.enter('k', 1000);
      await taker.turn;
      taker.offer(new HandoffSlot('x', `w${i}`, 1000));
      const slot = queue.claimable('k', 'x');
      pattern.push(slot !== undefined);
      if (!slot) break;
      queue.handedOff('k');
      taker.leave(true);
    }
    expect(pattern).toEqual([true, true, false]);
  });

  it('starts counting again once the run is over (taken in Redis, or let go for real with nothing held here)', async () => {
    const queue = await headOffering(1);
    queue.handedOff('k');
    queue.runOver('k');
    expect(queue.claimable('k', 'x')).toBeDefined();
  });

  it('by default lets a process hold DEFAULT_LONGEST_RUN times in a row: the take in Redis, then its hand-offs', async () => {
    const queue = await headOffering(); // the default limit
    let holds = 1; // taken in Redis
    while (queue.claimable('k', 'x')) {
      queue.handedOff('k');
      holds += 1;
    }
    expect(holds).toBe(DEFAULT_LONGEST_RUN);
  });

  it('ends a run of slow sections after HANDOFF_WINDOW_MS from its first hand-off, under the count', async () => {
    const queue = await headOffering(); // the default limit, far from reached here
    queue.handedOff('k');
    jest.advanceTimersByTime(HANDOFF_WINDOW_MS - 1);
    expect(queue.claimable('k', 'x')).toBeDefined();
    queue.handedOff('k');
    jest.advanceTimersByTime(1);
    expect(queue.claimable('k', 'x')).toBeUndefined();
    expect(queue.takeYield('k')).toBe(true); // the real release lets another process go first
    queue.handedOff('k'); // the next run's first hand-off: a window of its own
    jest.advanceTimersByTime(HANDOFF_WINDOW_MS - 1);
    expect(queue.claimable('k', 'x')).toBeDefined();
  });

  it('never hands off with a limit of 0', async () => {
    const queue = await headOffering(0);
    expect(queue.claimable('k', 'x')).toBeUndefined();
  });
});
