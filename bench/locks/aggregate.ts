import { jainIndex } from '../metrics/jain';
import { percentile } from '../metrics/latency';
import { lowerMedian } from '../metrics/median';
import { cpuPer, type CpuCost } from './cpu-cost';
import type { WorkerReport } from './messages';
import { sameProcessShare } from './same-process';
import { cpuWaitOf, type CpuWait } from './sched-probe';

/** One contender's figures over all its processes. */
export interface LockBenchResult {
  readonly contender: string;
  readonly ours: boolean;
  /** Run with its library's default settings (a peer's best, as measured). */
  readonly atDefaults: boolean;
  readonly processes: number;
  readonly waiters: number;
  readonly grants: number;
  readonly windowMs: number;
  readonly grantsPerSec: number;
  readonly failedAcquisitions: number;
  readonly maxWaitMs: number;
  readonly p99WaitMs: number;
  readonly minGrantsPerWaiter: number;
  readonly maxGrantsPerWaiter: number;
  /** Jain's index over grants per waiter, every waiter of every process: 1 = every waiter got as many. */
  readonly jain: number;
  /** Grants per process, in process order. */
  readonly grantsPerProcess: number[];
  /** The largest distance of a process's grants from the mean, as a share of the mean. */
  readonly processDeviation: number;
  /** The counter the critical sections incremented: equal to grants unless two held the lock at once. */
  readonly counter: number;
  /** Both counters equal their sections: the window's and the settle's (`settleGrants`). */
  readonly counterMatches: boolean;
  /** Sections entered in the settle, before the window (absent from runs made before there was one). */
  readonly settleGrants?: number;
  readonly errors: string[];
  /**
   * CPU time per grant inside the window, µs: the worker processes' (lock, section and waiters
   * together) and Redis's. Absent from runs made before it was measured.
   */
  readonly cpuMicrosPerGrant?: CpuCost;
  /** How long the processes' event loops, ready to run, waited for a CPU (Linux; absent from earlier runs). */
  readonly cpuWait?: CpuWait;
  /**
   * Of the window's grants after its first, the share whose previous grant ran in the same process
   * (same-process.ts); absent from runs made before it was measured.
   */
  readonly sameProcessShare?: number;
  /** grants/s of every round, when the run had several. */
  readonly roundsGrantsPerSec?: number[];
}

/** Pure: from each process's report, the final counter and the window's length. */
export function aggregate(
  contender: string,
  meta: { readonly ours: boolean; readonly atDefaults: boolean },
  reports: readonly WorkerReport[],
  counter: number,
  windowMs: number,
  /** Redis's CPU time inside the window, µs, when it was measured. */
  redisMicros?: number,
  /** The settle's counter, checked against the settle's sections as the window's is. */
  settleCounter = 0,
): LockBenchResult {
  const settleGrants = reports.reduce((s, r) => s + (r.settleSections ?? 0), 0);
  const perWaiter = reports.flatMap((r) => r.grantsPerWaiter);
  const grantsPerProcess = reports.map((r) => r.grantsPerWaiter.reduce((s, x) => s + x, 0));
  const grants = grantsPerProcess.reduce((s, x) => s + x, 0);
  const mean = reports.length > 0 ? grants / reports.length : 0;
  const waits = reports.flatMap((r) => r.waitsMs).sort((a, b) => a - b);
  return {
    contender,
    ours: meta.ours,
    atDefaults: meta.atDefaults,
    processes: reports.length,
    waiters: perWaiter.length,
    grants,
    windowMs,
    grantsPerSec: windowMs > 0 ? (grants * 1000) / windowMs : 0,
    failedAcquisitions: reports.reduce((s, r) => s + r.failedAcquisitions, 0),
    maxWaitMs: waits.length === 0 ? 0 : waits[waits.length - 1],
    p99WaitMs: percentile(waits, 99),
    minGrantsPerWaiter: perWaiter.length === 0 ? 0 : Math.min(...perWaiter),
    maxGrantsPerWaiter: perWaiter.length === 0 ? 0 : Math.max(...perWaiter),
    jain: jainIndex(perWaiter),
    grantsPerProcess,
    processDeviation: mean > 0 ? Math.max(...grantsPerProcess.map((g) => Math.abs(g - mean))) / mean : 0,
    counter,
    counterMatches: counter === grants && settleCounter === settleGrants,
    settleGrants,
    errors: reports.flatMap((r) => (r.error ? [`process ${r.processIndex}: ${r.error}`] : [])),
    ...whenMeasured('cpuMicrosPerGrant', cpuPer(grants, reports, redisMicros)),
    ...whenMeasured('cpuWait', cpuWaitOf(grants, reports)),
    ...whenMeasured('sameProcessShare', sameProcessShare(reports)),
  };
}

/** The field only when measured, so a run without it reads as before. */
function whenMeasured<K extends keyof LockBenchResult>(
  key: K,
  value: LockBenchResult[K] | undefined,
): Partial<Pick<LockBenchResult, K>> {
  return value === undefined ? {} : ({ [key]: value } as Partial<Pick<LockBenchResult, K>>);
}

/**
 * The median round by grants/s (the lower middle for an even count), with what must hold in
 * every round taken from the worst one: the longest wait, every failed acquisition, every
 * counter mismatch, the lowest Jain index and the widest spread of grants per process.
 */
export function medianRound(rounds: readonly LockBenchResult[]): LockBenchResult {
  if (rounds.length === 0) throw new Error('no rounds');
  const sorted = [...rounds].sort((a, b) => a.grantsPerSec - b.grantsPerSec);
  const median = lowerMedian(sorted)!;
  if (rounds.length === 1) return median;
  return {
    ...median,
    maxWaitMs: Math.max(...rounds.map((r) => r.maxWaitMs)),
    jain: Math.min(...rounds.map((r) => r.jain)),
    processDeviation: Math.max(...rounds.map((r) => r.processDeviation)),
    failedAcquisitions: rounds.reduce((s, r) => s + r.failedAcquisitions, 0),
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
