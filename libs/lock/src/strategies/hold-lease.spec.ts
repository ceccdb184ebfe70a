import type { Attempt } from '../verbs/attempt';
import { HoldLease } from './hold-lease';

const settle = () => new Promise((resolve) => setImmediate(resolve));

function deferredClaim(answer: Attempt | Error) {
  const calls: number[] = [];
  const attempt: Attempt = {
    acquired: true,
    deferredClaim: {
      claimMs: 1000,
      claim: () => {
        calls.push(Date.now());
        return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
      },
    },
  };
  return { attempt, calls };
}

describe('HoldLease', () => {
  it('lasts the lease from when it was set, or for ever for a lock without expiry', () => {
    expect(new HoldLease({ acquired: true }, 5000, 100, true, () => undefined).endsBy).toBe(5100);
    expect(new HoldLease({ acquired: true }, 5000, 100, false, () => undefined).endsBy).toBe(Infinity);
  });

  it('lasts the claim lease until claimed, then the full lease from the claim', async () => {
    const { attempt, calls } = deferredClaim({ acquired: true });
    const lease = new HoldLease(attempt, 10_000, Date.now(), true, () => undefined);
    expect(lease.endsBy).toBeLessThanOrEqual(Date.now() + 1000);
    lease.claimNow();
    lease.claimNow();
    await settle();
    expect(calls).toHaveLength(1);
    expect(lease.endsBy).toBeGreaterThanOrEqual(calls[0] + 10_000);
    lease.close();
  });

  it('claims by itself once half the claim lease has gone', () => {
    jest.useFakeTimers();
    try {
      const { attempt, calls } = deferredClaim({ acquired: true });
      const lease = new HoldLease(attempt, 10_000, Date.now(), true, () => undefined);
      jest.advanceTimersByTime(499);
      expect(calls).toHaveLength(0);
      jest.advanceTimersByTime(1);
      expect(calls).toHaveLength(1);
      lease.close();
    } finally {
      jest.useRealTimers();
    }
  });

  it('owes no claim once the hold ends', () => {
    jest.useFakeTimers();
    try {
      const { attempt, calls } = deferredClaim({ acquired: true });
      const lease = new HoldLease(attempt, 10_000, Date.now(), true, () => undefined);
      lease.close();
      jest.advanceTimersByTime(1000);
      lease.claimNow();
      expect(calls).toHaveLength(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('tells why when the claim finds the lock gone or fails', async () => {
    const reasons: string[] = [];
    for (const answer of [{ acquired: false }, new Error('down')]) {
      const lease = new HoldLease(deferredClaim(answer).attempt, 10_000, Date.now(), true, (why) => reasons.push(why));
      lease.claimNow();
      await settle();
    }
    expect(reasons).toEqual(['the claim found the lock gone', 'the claim failed: Error: down']);
  });
});
