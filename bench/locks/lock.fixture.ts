import type { LockBenchResult } from './aggregate';

/** One contender over a 5 s window: 3 processes × 50 waiters, fair and exact unless `extra` says otherwise. */
export function sampleLockResult(
  contender: string,
  ours: boolean,
  grantsPerSec: number,
  extra: Partial<LockBenchResult> = {},
): LockBenchResult {
  const waits = {
    failedAcquisitions: 0,
    maxWaitMs: 120,
    p99WaitMs: 90,
  };
  const shares = { jain: 0.99, grantsPerProcess: [1500, 1490, 1510], processDeviation: 10 / 1500 };
  const run = { atDefaults: true, processes: 3, waiters: 150, grants: 4500, windowMs: 5000, grantsPerSec };
  return { contender, ours, ...run, ...waits, ...shares, counter: 4500, counterMatches: true, errors: [], ...extra };
}
