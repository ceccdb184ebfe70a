import type { BenchReport, StrategyResult } from '../types';

/** Test data for the renderers: figures chosen to be unique, so a spec can find each one. */
export function sampleResult(overrides: Partial<StrategyResult> & { strategy: string }): StrategyResult {
  return {
    couponId: '1',
    query: { strategy: overrides.strategy, workMs: '5' },
    segments: 1,
    requests: 1000,
    durationMs: 4000,
    requestsPerSec: 250,
    grabsPerSec: 125,
    latency: { p50: 12.5, p99: 88, p999: 140, max: 151, mean: 20, stddev: 9 },
    statuses: {
      granted: 500,
      soldOut: 500,
      duplicate: 0,
      fenceRejected: 0,
      lockTimeout: 0,
      otherClientError: 0,
      serverError: 0,
      errors: 0,
      timeouts: 0,
    },
    audit: { initialStock: 500, stock: 0, grants: 500, oversold: 0, lostUpdates: 0, maxConcurrentHolders: 1 },
    reconciliation: { grantedSeen: 500, grantsInDb: 500, matches: true, unanswered: 0 },
    utilisation: { busyShare: 0.91, meanHolders: 0.91, windowMs: 3900 },
    fairness: { maxLatencyMs: 151, spreadMs: 75.5, latencyJain: 0.8 },
    verdict: { correct: true, flags: [], label: 'correct' },
    ...overrides,
  };
}

export function sampleReport(results: StrategyResult[]): BenchReport {
  return {
    startedAt: '2026-11-22T04:30:05.123Z',
    finishedAt: '2026-11-22T04:31:35.000Z',
    machine: { cpus: 2, cpuModel: 'Test CPU <fast> & co', node: 'v20.20.2', platform: 'linux 6.1', totalMemGb: 3.8 },
    settings: {
      strategies: results.map((r) => r.strategy),
      stock: 500,
      requests: 1000,
      warmupRequests: 100,
      connections: 50,
      workMs: 5,
      segments: 8,
      quick: false,
    },
    method: 'Method paragraph: autocannon with a fixed amount.',
    target: { nginxUrl: 'http://127.0.0.1:28080', replicas: 3 },
    results,
  };
}

/** A correct single lock, a fast wrong baseline and a segmented lock. */
export function threeStrategies(): BenchReport {
  return sampleReport([
    sampleResult({
      strategy: 'owner-checked',
      grabsPerSec: 131.4,
      fairness: { maxLatencyMs: 151, spreadMs: 75.5, latencyJain: 0.8, maxLockWaitMs: 321 },
    }),
    sampleResult({
      strategy: 'none',
      grabsPerSec: 2345.6,
      audit: { initialStock: 500, stock: 212, grants: 777, oversold: 277, lostUpdates: 489, maxConcurrentHolders: 41 },
      statuses: {
        granted: 777,
        soldOut: 223,
        duplicate: 0,
        fenceRejected: 0,
        lockTimeout: 0,
        otherClientError: 0,
        serverError: 0,
        errors: 0,
        timeouts: 0,
      },
      reconciliation: { grantedSeen: 777, grantsInDb: 777, matches: true, unanswered: 0 },
      verdict: { correct: false, flags: ['OVERSOLD', 'LOST UPDATES'], label: 'OVERSOLD + LOST UPDATES' },
    }),
    sampleResult({
      strategy: 'segmented',
      grabsPerSec: 523.9,
      segments: 8,
      utilisation: { busyShare: 0.99, meanHolders: 6.2, windowMs: 950 },
    }),
  ]);
}
