import { percentile } from '@app/stock';
import { jainIndex, lowerMedian } from '../metrics/figures';
import type { WorkerCounts } from './worker';

/** One process's counts of one measurement. */
export type WorkerReport = WorkerCounts & { readonly processIndex: number };

/** One contender's figures over all its processes (and, when the run had several rounds, each round's grants/s). */
export type LockBenchResult = ReturnType<typeof aggregate> & { readonly roundsGrantsPerSec?: number[] };

const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);

/** Pure: one contender's figures from its processes' reports and the counters: the window's, the warm-up's. */
export function aggregate(
  contender: string,
  meta: { readonly ours: boolean; readonly atDefaults: boolean },
  reports: readonly WorkerReport[],
  { counter, warmUpCounter }: { readonly counter: number; readonly warmUpCounter: number },
  windowMs: number,
) {
  const perWaiter = reports.flatMap((r) => r.grantsPerWaiter);
  const grantsPerProcess = reports.map((r) => sum(r.grantsPerWaiter));
  const grants = sum(grantsPerProcess);
  const mean = grants / Math.max(1, reports.length);
  const waits = reports.flatMap((r) => r.waitsMs).sort((a, b) => a - b);
  return {
    contender,
    ...meta,
    processes: reports.length,
    waiters: perWaiter.length,
    grants,
    windowMs,
    grantsPerSec: windowMs > 0 ? (grants * 1000) / windowMs : 0,
    failedAcquisitions: sum(reports.map((r) => r.failedAcquisitions)),
    maxWaitMs: waits.at(-1) ?? 0,
    p99WaitMs: waits.length > 0 ? percentile(waits, 99) : 0,
    // Over the grants of every waiter of every process: 1 when each got as many.
    jain: jainIndex(perWaiter),
    grantsPerProcess,
    // The widest distance of a process's grants from their mean, as a share of it.
    processDeviation: mean > 0 ? Math.max(...grantsPerProcess.map((g) => Math.abs(g - mean))) / mean : 0,
    // What the sections counted: equal to grants (and the warm-up's to its sections) unless two held at once.
    counter,
    counterMatches: counter === grants && warmUpCounter === sum(reports.map((r) => r.warmUpSections)),
    errors: reports.flatMap((r) => (r.error ? [`process ${r.processIndex}: ${r.error}`] : [])),
  };
}

/**
 * The median round by grants/s (the lower middle for an even count), with what must hold in every
 * round taken over all: the longest wait, the failures, the counter checks, the errors, the lowest Jain.
 */
export function medianRound(rounds: readonly LockBenchResult[]): LockBenchResult {
  const median = lowerMedian([...rounds].sort((a, b) => a.grantsPerSec - b.grantsPerSec));
  if (!median) throw new Error('no rounds');
  if (rounds.length === 1) return median;
  return {
    ...median,
    maxWaitMs: Math.max(...rounds.map((r) => r.maxWaitMs)),
    jain: Math.min(...rounds.map((r) => r.jain)),
    failedAcquisitions: sum(rounds.map((r) => r.failedAcquisitions)),
    counterMatches: rounds.every((r) => r.counterMatches),
    errors: rounds.flatMap((r) => r.errors),
    roundsGrantsPerSec: rounds.map((r) => r.grantsPerSec),
  };
}

/** Round r runs the contenders starting from the r-th, so no lock always goes first (or last). */
export function roundOrder<T>(contenders: readonly T[], round: number): T[] {
  const shift = round % Math.max(1, contenders.length);
  return [...contenders.slice(shift), ...contenders.slice(0, shift)];
}
