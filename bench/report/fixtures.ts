import { boundOf } from '../metrics/bound';
import { emptyStatusCounts } from '../metrics/status-counts';
import { verdictOf } from '../metrics/verdict';
import { scenarioFor } from '../scenarios';
import type {
  BenchReport,
  Ceilings,
  LatencySummary,
  LoadResult,
  SoldOutRound,
  StatusCounts,
  StrategyResult,
  Verdict,
  VerdictFlag,
} from '../types';

/** Test data for the renderers and the targets: figures chosen to be unique, so a spec can find each one. */

/** The run's ceilings: the higher of two readings each (http and redis from the second, pg from the first). */
export const sampleCeilings: Ceilings = {
  httpPerSec: 4210,
  pgHotRowPerSec: 1480,
  redisPerSec: 9350,
  readings: [
    { httpPerSec: 4105, pgHotRowPerSec: 1480, redisPerSec: 9010 },
    { httpPerSec: 4210, pgHotRowPerSec: 1402, redisPerSec: 9350 },
  ],
  method: 'Ceilings method paragraph.',
};

export function sampleLatency(p50: number, p99: number, max = p99): LatencySummary {
  return { p50, p99, p999: max, max, mean: p50 + 1, stddev: 2 };
}

export function sampleStatuses(overrides: Partial<StatusCounts> = {}): StatusCounts {
  return { ...emptyStatusCounts(), granted: 500, soldOut: 500, ...overrides };
}

/** A verdict as verdict() writes it, for data whose flags are chosen by hand. */
export function sampleVerdict(flags: VerdictFlag[], expected: VerdictFlag[] = flags): Verdict {
  return verdictOf(flags, expected);
}

/** The grabs on a coupon once it sold out, held to the sample http ceiling. */
export function sampleSoldOut(perSec: number, otherAnswers = 0): SoldOutRound {
  return {
    requests: 1000,
    perSec,
    latency: sampleLatency(4.1, 11.5),
    otherAnswers,
    bound: boundOf(perSec, sampleCeilings, ['httpPerSec']),
  };
}

/** A correct strategy that sold 500 of 500 at workMs 5; its bound is taken against sampleCeilings. */
export function sampleResult(overrides: Partial<StrategyResult> & { strategy: string }): StrategyResult {
  const strategy = overrides.strategy;
  const workMs = overrides.workMs ?? 5;
  const grabsPerSec = overrides.grabsPerSec ?? 125;
  return {
    workMs,
    couponId: '1',
    query: { strategy, workMs: String(workMs) },
    segments: 1,
    requests: 1000,
    durationMs: 4000,
    requestsPerSec: 250,
    grabsPerSec,
    bound: boundOf(grabsPerSec, sampleCeilings, scenarioFor(strategy).bounds),
    latency: {
      all: { p50: 12.5, p99: 88, p999: 140, max: 151, mean: 20, stddev: 9 },
      granted: sampleLatency(14.5, 91, 151),
      turnedAway: sampleLatency(3.2, 9.5, 12),
    },
    statuses: sampleStatuses(),
    audit: {
      initialStock: 500,
      stock: 0,
      grants: 500,
      oversold: 0,
      lostUpdates: 0,
      maxConcurrentHolders: 1,
      statements: 500,
    },
    reconciliation: { grantedSeen: 500, grantsInDb: 500, matches: true, unanswered: 0 },
    utilisation: { busyShare: 0.91, meanHolders: 0.91, windowMs: 3900 },
    fairness: { maxLatencyMs: 151, spreadMs: 75.5, latencyJain: 0.8 },
    verdict: sampleVerdict([]),
    soldOut: sampleSoldOut(3333),
    ...overrides,
  };
}

/** One load: every result gets the load's workMs. */
export function sampleLoad(workMs: number, results: (Partial<StrategyResult> & { strategy: string })[]): LoadResult {
  return { workMs, results: results.map((r) => sampleResult({ ...r, workMs })) };
}

export function sampleReport(loads: LoadResult[], overrides: Partial<BenchReport> = {}): BenchReport {
  const strategies = [...new Set(loads.flatMap((l) => l.results.map((r) => r.strategy)))];
  return {
    startedAt: '2026-11-22T04:30:05.123Z',
    finishedAt: '2026-11-22T04:31:35.000Z',
    machine: { cpus: 2, cpuModel: 'Test CPU <fast> & co', node: 'v20.20.2', platform: 'linux 6.1', totalMemGb: 3.8 },
    settings: {
      strategies,
      stock: 500,
      requests: 1000,
      warmupRequests: 100,
      connections: 50,
      loads: loads.map((l) => l.workMs),
      segments: 8,
      probeWorkMs: 300,
      quick: false,
    },
    method: 'Method paragraph: autocannon with a fixed amount.',
    target: { nginxUrl: 'http://127.0.0.1:28080', replicas: 3 },
    ceilings: sampleCeilings,
    loads,
    workProbes: [],
    ...overrides,
  };
}
