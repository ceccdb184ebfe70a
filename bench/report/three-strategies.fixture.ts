import type { BenchReport, StrategyResult } from '../types';
import { sampleLatency, sampleLoad, sampleReport, sampleSoldOut, sampleStatuses, sampleVerdict } from './fixtures';

/** The wrong baseline: no lock, oversold and lost updates, as scenarios.ts expects of it (stock left, so no sold-out round). */
function noLock(
  grabsPerSec: number,
  granted: number,
  oversold: number,
  lostUpdates: number,
  holders: number,
): Partial<StrategyResult> & { strategy: string } {
  const initialStock = 500;
  return {
    strategy: 'none',
    grabsPerSec,
    audit: {
      initialStock,
      stock: initialStock - (granted - lostUpdates),
      grants: granted,
      oversold,
      lostUpdates,
      maxConcurrentHolders: holders,
      statements: granted,
    },
    statuses: sampleStatuses({ granted, soldOut: 1000 - granted }),
    reconciliation: { grantedSeen: granted, grantsInDb: granted, matches: true, unanswered: 0 },
    verdict: sampleVerdict(['OVERSOLD', 'LOST UPDATES']),
    soldOut: undefined,
  };
}

/**
 * Two loads (workMs 0 and 5), each with a correct single lock, the wrong baseline and a
 * segmented lock, with different figures per load; and a work probe every strategy passed.
 */
export function threeStrategies(): BenchReport {
  return sampleReport(
    [
      sampleLoad(0, [
        {
          strategy: 'owner-checked',
          grabsPerSec: 1207.3,
          latency: {
            all: sampleLatency(30.5, 61),
            granted: sampleLatency(33.5, 62.5),
            turnedAway: sampleLatency(2.7, 8.4),
          },
          utilisation: { busyShare: 0.97, meanHolders: 0.97, windowMs: 410 },
          soldOut: sampleSoldOut(3987.4),
        },
        noLock(3120.8, 688, 188, 402, 17),
        {
          strategy: 'segmented',
          grabsPerSec: 2987.2,
          segments: 8,
          utilisation: { busyShare: 0.93, meanHolders: 5.1, windowMs: 170 },
          soldOut: sampleSoldOut(3571.9),
        },
      ]),
      sampleLoad(5, [
        {
          strategy: 'owner-checked',
          grabsPerSec: 131.4,
          utilisation: { busyShare: 0.91, meanHolders: 0.91, windowMs: 3900, lockHeldShare: 0.94 },
          fairness: { maxLatencyMs: 151, spreadMs: 75.5, latencyJain: 0.8, maxLockWaitMs: 321 },
          machineCpu: { microsEach: 9876.4, coresBusy: 1.297 },
        },
        noLock(2345.6, 777, 277, 489, 41),
        {
          strategy: 'segmented',
          grabsPerSec: 523.9,
          segments: 8,
          utilisation: { busyShare: 0.99, meanHolders: 6.2, windowMs: 950 },
        },
      ]),
    ],
    {
      workProbes: [
        { strategy: 'owner-checked', workMs: 300, granted: 3, minGrantedMs: 304, ok: true },
        { strategy: 'none', workMs: 300, granted: 3, minGrantedMs: 302, ok: true },
        { strategy: 'segmented', workMs: 300, granted: 3, minGrantedMs: 301, ok: true },
      ],
    },
  );
}
