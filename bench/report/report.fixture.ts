import type { Audit } from '@app/contract';
import { lessonsOf } from '../lessons';
import { emptyStatusCounts } from '../metrics/verdict';
import { verdictOf } from '../metrics/verdict';
import { boundOf, scenarioFor } from '../scenarios';
import type { BenchReport, Ceilings, LoadResult, StatusCounts, StrategyResult, Verdict, VerdictFlag } from '../types';

/** Test data for the renderers and the lessons: figures chosen to be unique, so a spec can find each one. */

export const sampleCeilings: Ceilings = {
  httpPerSec: 4210,
  pgHotRowPerSec: 1480,
  redisPerSec: 9350,
  method: 'Ceilings method paragraph.',
};

export function sampleStatuses(overrides: Partial<StatusCounts> = {}): StatusCounts {
  return { ...emptyStatusCounts(), granted: 500, soldOut: 500, ...overrides };
}

/** A verdict as verdict() writes it, for data whose flags are chosen by hand. */
export function sampleVerdict(flags: VerdictFlag[], expected: VerdictFlag[] = flags): Verdict {
  return verdictOf(flags, expected);
}

/** A correct strategy that sold 500 of 500 at workMs 5; its bound is taken against sampleCeilings. */
/** `units` of `units` sold, one statement each: an exact sale. */
export function exactAudit(units: number): Audit {
  return {
    initialStock: units,
    stock: 0,
    grants: units,
    oversold: 0,
    lostUpdates: 0,
    maxConcurrentHolders: 1,
    statements: units,
  };
}

export function sampleResult(overrides: Partial<StrategyResult> & { strategy: string }): StrategyResult {
  const grabsPerSec = overrides.grabsPerSec ?? 125;
  return {
    workMs: 5,
    couponId: '1',
    segments: 1,
    requests: 1000,
    durationMs: 4000,
    grabsPerSec,
    bound: boundOf(grabsPerSec, sampleCeilings, scenarioFor(overrides.strategy).bounds),
    latency: { granted: { p50: 14.5, p99: 91, max: 151 }, turnedAway: { p50: 3.2, p99: 9.5, max: 12 } },
    statuses: sampleStatuses(),
    audit: {
      ...exactAudit(500),
    },
    reconciliation: { grantedSeen: 500, grantsInDb: 500, matches: true, unanswered: 0 },
    utilisation: { busyShare: 0.91, meanSectionMs: 6.2, meanGapMs: 1.3 },
    verdict: sampleVerdict([]),
    soldOut: { requests: 1000, perSec: 3333, otherAnswers: 0 },
    commits: 500,
    ...overrides,
  };
}

/** One load: every result gets the load's workMs. */
export function sampleLoad(workMs: number, results: (Partial<StrategyResult> & { strategy: string })[]): LoadResult {
  return { workMs, results: results.map((r) => sampleResult({ ...r, workMs })) };
}

/** A report of these loads, its lessons drawn from them. */
export function sampleReport(loads: LoadResult[], overrides: Partial<BenchReport> = {}): BenchReport {
  const run = {
    startedAt: '2026-11-22T04:30:05.123Z',
    finishedAt: '2026-11-22T04:31:35.000Z',
    machine: { cpus: 2, cpuModel: 'Test CPU <fast> & co', node: 'v20.20.2', platform: 'linux 6.1', totalMemGb: 3.8 },
    settings: {
      strategies: [...new Set(loads.flatMap((l) => l.results.map((r) => r.strategy)))],
      stock: 500,
      requests: 1000,
      warmupRequests: 100,
      connections: 50,
      loads: loads.map((l) => l.workMs),
      segments: 8,
      sellOutRuns: 1,
    },
    method: 'Method paragraph: autocannon with a fixed amount.',
    target: { nginxUrl: 'http://127.0.0.1:28080', replicas: 3 },
    ceilings: sampleCeilings,
    loads,
    ...overrides,
  };
  return { ...run, lessons: overrides.lessons ?? lessonsOf(run) };
}

/** The wrong baseline: no lock, oversold and lost updates, as scenarios.ts expects of it. */
function noLock(
  grabsPerSec: number,
  oversold: number,
  lostUpdates: number,
): Partial<StrategyResult> & { strategy: string } {
  const granted = 500 + oversold;
  return {
    strategy: 'none',
    grabsPerSec,
    audit: {
      initialStock: 500,
      stock: 500 - (granted - lostUpdates),
      grants: granted,
      oversold,
      lostUpdates,
      maxConcurrentHolders: 17,
      statements: granted,
    },
    statuses: sampleStatuses({ granted, soldOut: 1000 - granted }),
    reconciliation: { grantedSeen: granted, grantsInDb: granted, matches: true, unanswered: 0 },
    verdict: sampleVerdict(['OVERSOLD', 'LOST UPDATES']),
    soldOut: undefined,
    commits: granted,
  };
}

/** Two loads (workMs 0 and 5): a single lock, the wrong baseline, segmented and db-atomic, different figures per load. */
export function fourStrategies(): BenchReport {
  return sampleReport([
    sampleLoad(0, [
      { strategy: 'owner-checked', grabsPerSec: 1207.3, soldOut: { requests: 1000, perSec: 3987.4, otherAnswers: 0 } },
      noLock(3120.8, 188, 402),
      { strategy: 'segmented', grabsPerSec: 2987.2, segments: 8 },
      { strategy: 'db-atomic', grabsPerSec: 1631.4 },
    ]),
    sampleLoad(5, [
      {
        strategy: 'owner-checked',
        grabsPerSec: 131.4,
        utilisation: { busyShare: 0.91, meanSectionMs: 5.4, meanGapMs: 2.9 },
        machineCpu: { microsEach: 9876.4, coresBusy: 1.297 },
      },
      noLock(2345.6, 277, 489),
      {
        strategy: 'segmented',
        grabsPerSec: 523.9,
        segments: 8,
        audit: { ...sampleResult({ strategy: 's' }).audit, maxConcurrentHolders: 6 },
      },
      { strategy: 'db-atomic', grabsPerSec: 140.2 },
    ]),
  ]);
}
