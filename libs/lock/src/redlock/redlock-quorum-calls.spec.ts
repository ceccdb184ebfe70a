import { performance } from 'node:perf_hooks';
import { HandoffSlot } from '../waiting/handoff-slot';
import { handedOwner, heldOwner, RedlockQuorum } from './redlock-quorum-calls';
import { validityMs } from './redlock-quorum';

describe('heldOwner', () => {
  it("is the value the nodes hold for the waiter: its own, the swap's, or its run's", () => {
    expect(heldOwner({}, 'w')).toBe('w'); // won by its own attempt
    expect(heldOwner({ handedOff: true }, 'w')).toBe(handedOwner('w')); // swapped to it
    expect(heldOwner({ handedOff: true, runOwner: 'run' }, 'w')).toBe('run'); // handed on within the run
  });
});

// No nodes: a hand-off that goes to them is a swap (its verdict, lost here, comes as a confirmation).
describe('RedlockQuorum.handOff within the run', () => {
  const quorum = new RedlockQuorum([]);
  const handOff = async (takerLeaseMs: number, validUntil: number, confirmed = true) => {
    const slot = new HandoffSlot('redlock', 'taker', takerLeaseMs);
    const handed = await quorum.handOff(slot, 'lock:{r}', 'run', 0.01, validUntil, confirmed);
    return { handed, ...slot.handedAttempt() };
  };

  it("hands a fresh run's hold on with no call, under the run's value, never longer than the taker's own lease", async () => {
    const fresh = performance.now() + validityMs(10_000, 0);
    const same = await handOff(10_000, fresh);
    expect(same).toMatchObject({ handed: true, runOwner: 'run', validUntil: fresh });
    expect(same.confirmation).toBeUndefined();

    const before = performance.now();
    const shorter = await handOff(1000, fresh); // a taker asking for 1 s behind a 10 s hold
    expect(shorter.runOwner).toBe('run');
    expect(shorter.validUntil!).toBeLessThanOrEqual(performance.now() + validityMs(1000, 0));
    expect(shorter.validUntil!).toBeGreaterThanOrEqual(before + validityMs(1000, 0));
  });

  it('swaps instead for a hold still waiting for its own verdict, or past the first hundredth', async () => {
    const fresh = () => performance.now() + validityMs(10_000, 0);
    for (const swapped of [await handOff(10_000, fresh(), false), await handOff(10_000, fresh() - 101)]) {
      // Started at once on the giver's validity, the swap's verdict to follow.
      expect(swapped.handed).toBe(true);
      expect(swapped.runOwner).toBeUndefined();
      expect(await swapped.confirmation).toBe('the hand-off lost its majority');
    }
  });

  it('never hands on a hold past its validity, even for a taker whose lease is that short', async () => {
    const late = await handOff(1, performance.now() - 0.5);
    expect(late.handed).toBe(false); // the swap, awaited so late, lost
    expect(late.runOwner).toBeUndefined();
  });
});
