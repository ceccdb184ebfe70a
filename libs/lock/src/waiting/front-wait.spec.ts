import type { Attempt } from '../verbs/attempt';
import { pauseBound, waitAsFront } from './front-wait';

const POLL_MS = 300;

describe('waitAsFront', () => {
  it("attempts again at once when the holder's lease had no whole millisecond left, not a poll later", async () => {
    // PTTL answers 0 in the lease's last millisecond: the lock is free by the next attempt.
    const answers: Attempt[] = [{ acquired: false, why: 'held', holderTtlMs: 0 }, { acquired: true }];
    const at: number[] = [];
    const started = performance.now();
    const got = await waitAsFront({
      deadline: started + 5000,
      attempt: () => Promise.resolve((at.push(performance.now() - started), answers.shift()!)),
      pauseMs: (failed) => pauseBound(failed, POLL_MS),
    });
    expect(got.acquired).toBe(true);
    expect(at[1] - at[0]).toBeLessThan(POLL_MS / 2);
  });

  it('makes exactly one attempt once the deadline has passed', async () => {
    const attempt = jest.fn(() => Promise.resolve<Attempt>({ acquired: false, why: 'held', holderTtlMs: 900 }));
    const got = await waitAsFront({ deadline: performance.now(), attempt, pauseMs: (f) => pauseBound(f, POLL_MS) });
    expect(got).toEqual({ acquired: false, why: 'held', holderTtlMs: 900 });
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it('pauses until the lease ends, at most the bound; a lock without lease or with a process ahead waits the bound', () => {
    expect(pauseBound({ acquired: false, why: 'held', holderTtlMs: 120 }, POLL_MS)).toBe(120);
    expect(pauseBound({ acquired: false, why: 'held', holderTtlMs: 5000 }, POLL_MS)).toBe(POLL_MS);
    expect(pauseBound({ acquired: false, why: 'held-forever' }, POLL_MS)).toBe(POLL_MS);
    expect(pauseBound({ acquired: false, why: 'behind' }, POLL_MS)).toBe(POLL_MS);
  });
});
