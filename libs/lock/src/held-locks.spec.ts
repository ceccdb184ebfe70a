import { HeldLocks, type Hold } from './held-locks';

const hold = (lockKey: string, owner: string): Hold => ({
  strategy: 'owner-checked',
  lockKey,
  owner,
  lost: new AbortController(),
  release: () => Promise.resolve(),
});

describe('HeldLocks', () => {
  it('tells the holds of a key by owner, whether a key is held, and all of them', () => {
    const held = new HeldLocks();
    const [a1, a1again, a2, b1] = [hold('a', 'o1'), hold('a', 'o1'), hold('a', 'o2'), hold('b', 'o1')];
    for (const h of [a1, a1again, a2, b1]) held.add(h);
    expect(held.of('a', 'o1')).toEqual([a1, a1again]); // a reentrant flow's nesting, in order
    expect(held.has('a') && held.has('b') && !held.has('c')).toBe(true);
    expect(held.size).toBe(4);
    held.delete(a1);
    held.delete(a1); // twice: nothing more happens
    expect(held.of('a', 'o1')).toEqual([a1again]);
    expect(held.size).toBe(3);
    expect(new Set(held.all())).toEqual(new Set([a1again, a2, b1]));
  });

  it('a key held again after it emptied, and many keys emptied at once, keep the count right', () => {
    const held = new HeldLocks();
    const kept = hold('kept', 'o');
    held.add(kept);
    for (let i = 0; i < 200; i++) {
      const h = hold(`k${i % 70}`, 'o'); // more keys emptied than are kept empty: they are dropped
      held.add(h);
      held.delete(h);
    }
    const hot = hold('k1', 'o');
    held.add(hot);
    expect(held.has('k1')).toBe(true);
    expect(held.has('k2')).toBe(false);
    expect(held.all()).toEqual(expect.arrayContaining([kept, hot]));
    expect(held.size).toBe(2);
    // Bounded: 70 keys went empty, and the empties were dropped past 64 of them.
    expect((held as unknown as { byKey: Map<string, Hold[]> }).byKey.size).toBeLessThanOrEqual(66);
  });
});
