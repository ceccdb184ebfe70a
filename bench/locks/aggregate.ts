import { percentile } from '@app/stock';
import { jainIndex, lowerMedian } from '../metrics/figures';
import type { WorkerCounts } from './worker';

/** One contender's figures over all its processes. */
export type LockBenchResult = ReturnType<typeof aggregate>;

const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);

/** Pure: one contender's figures from its processes' counts and the counter its sections incremented. */
export function aggregate(
  contender: string,
  ours: boolean,
  reports: readonly WorkerCounts[],
  counter: number,
  windowMs: number,
) {
  const grantsPerProcess = reports.map((r) => sum(r.grantsPerWaiter));
  const waits = reports.flatMap((r) => r.waitsMs).sort((a, b) => a - b);
  return {
    contender,
    ours,
    grantsPerSec: (sum(grantsPerProcess) * 1000) / windowMs,
    failedAcquisitions: sum(reports.map((r) => r.failedAcquisitions)),
    maxWaitMs: waits.at(-1) ?? 0,
    p99WaitMs: waits.length > 0 ? percentile(waits, 99) : 0,
    // Over the grants of every waiter of every process: 1 when each got as many.
    jain: jainIndex(reports.flatMap((r) => r.grantsPerWaiter)),
    grantsPerProcess,
    // Every section ran read-then-write on one counter: it falls short of them when two held at once.
    counterMatches: counter === sum(reports.map((r) => r.sections)),
    errors: reports.flatMap((r) => (r.error ? [r.error] : [])),
  };
}

/** The median round by grants/s (the lower middle of an even count); what must hold in every round, over all. */
export function medianRound(rounds: readonly LockBenchResult[]): LockBenchResult {
  const median = lowerMedian([...rounds].sort((a, b) => a.grantsPerSec - b.grantsPerSec));
  if (!median) throw new Error('no rounds');
  return {
    ...median,
    maxWaitMs: Math.max(...rounds.map((r) => r.maxWaitMs)),
    jain: Math.min(...rounds.map((r) => r.jain)),
    failedAcquisitions: sum(rounds.map((r) => r.failedAcquisitions)),
    counterMatches: rounds.every((r) => r.counterMatches),
    errors: rounds.flatMap((r) => r.errors),
  };
}
