import { jainIndex } from '../metrics/jain';
import { percentile } from '../metrics/latency';
import type { WorkerReport } from './messages';

/** One contender's figures over all its processes. */
export interface LockBenchResult {
  readonly contender: string;
  readonly ours: boolean;
  readonly processes: number;
  readonly waiters: number;
  readonly grants: number;
  readonly elapsedMs: number;
  readonly grantsPerSec: number;
  readonly failedAcquisitions: number;
  readonly maxWaitMs: number;
  readonly p99WaitMs: number;
  readonly minGrantsPerWaiter: number;
  readonly maxGrantsPerWaiter: number;
  /** Jain's index over grants per waiter (all processes): 1 = every waiter got as many. */
  readonly jain: number;
  /** The counter the critical sections incremented: equal to grants unless two held the lock at once. */
  readonly counter: number;
  readonly counterMatches: boolean;
  readonly errors: string[];
  /** grants/s of every round, when the run had several (the figures above are the median round's). */
  readonly roundsGrantsPerSec?: number[];
}

/** Pure: from each process's report and the final counter. Elapsed runs from the first start to the last finish. */
export function aggregate(
  contender: string,
  ours: boolean,
  reports: readonly WorkerReport[],
  counter: number,
): LockBenchResult {
  const perWaiter = reports.flatMap((r) => r.grantsPerWaiter);
  const grants = perWaiter.reduce((s, x) => s + x, 0);
  const waits = reports.flatMap((r) => r.waitsMs).sort((a, b) => a - b);
  const elapsedMs =
    reports.length === 0
      ? 0
      : Math.max(...reports.map((r) => r.finishedAt)) - Math.min(...reports.map((r) => r.startedAt));
  return {
    contender,
    ours,
    processes: reports.length,
    waiters: perWaiter.length,
    grants,
    elapsedMs,
    grantsPerSec: elapsedMs > 0 ? (grants * 1000) / elapsedMs : 0,
    failedAcquisitions: reports.reduce((s, r) => s + r.failedAcquisitions, 0),
    maxWaitMs: waits.length === 0 ? 0 : waits[waits.length - 1],
    p99WaitMs: percentile(waits, 99),
    minGrantsPerWaiter: perWaiter.length === 0 ? 0 : Math.min(...perWaiter),
    maxGrantsPerWaiter: perWaiter.length === 0 ? 0 : Math.max(...perWaiter),
    jain: jainIndex(perWaiter),
    counter,
    counterMatches: counter === grants,
    errors: reports.flatMap((r) => (r.error ? [`process ${r.processIndex}: ${r.error}`] : [])),
  };
}

export interface PeerRatio {
  readonly ours: string;
  readonly bestPeer: string;
  /** Our grants/s over the best peer's. */
  readonly ratio: number;
}

/** Each of our locks against the fastest peer. */
export function ratiosToBestPeer(results: readonly LockBenchResult[]): PeerRatio[] {
  const peers = results.filter((r) => !r.ours);
  if (peers.length === 0) return [];
  const best = peers.reduce((a, b) => (b.grantsPerSec > a.grantsPerSec ? b : a));
  return results
    .filter((r) => r.ours)
    .map((r) => ({
      ours: r.contender,
      bestPeer: best.contender,
      ratio: best.grantsPerSec > 0 ? r.grantsPerSec / best.grantsPerSec : Number.POSITIVE_INFINITY,
    }));
}

/** Issue 5's targets for our lock at 3 × 50 waiters. */
export const lockTargets = { ratio: 1.5, failedAcquisitions: 0, jain: 0.95, maxWaitMs: 200 } as const;

export function meetsTargets(result: LockBenchResult, ratio: number): boolean {
  return (
    ratio >= lockTargets.ratio &&
    result.failedAcquisitions === lockTargets.failedAcquisitions &&
    result.jain >= lockTargets.jain &&
    result.maxWaitMs <= lockTargets.maxWaitMs &&
    result.counterMatches
  );
}

/** The median round by grants/s (the lower middle for an even count), carrying every round's grants/s. */
export function medianRound(rounds: readonly LockBenchResult[]): LockBenchResult {
  if (rounds.length === 0) throw new Error('no rounds');
  const sorted = [...rounds].sort((a, b) => a.grantsPerSec - b.grantsPerSec);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  return rounds.length === 1 ? median : { ...median, roundsGrantsPerSec: rounds.map((r) => r.grantsPerSec) };
}

/** Round r runs the contenders starting from the r-th, so no lock always goes first (or last). */
export function roundOrder<T>(contenders: readonly T[], round: number): T[] {
  const shift = round % Math.max(1, contenders.length);
  return [...contenders.slice(shift), ...contenders.slice(0, shift)];
}
