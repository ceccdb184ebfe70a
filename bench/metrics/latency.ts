import type { LatencySplit, LatencySummary } from '../types';

/** Nearest-rank percentile (p in 0…100) of an ascending list; 0 for an empty one. */
export function percentile(sortedAscending: readonly number[], p: number): number {
  if (sortedAscending.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sortedAscending.length);
  return sortedAscending[Math.min(sortedAscending.length, Math.max(1, rank)) - 1];
}

export function summariseLatency(latenciesMs: readonly number[]): LatencySummary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const n = sorted.length;
  const mean = n === 0 ? 0 : sorted.reduce((s, x) => s + x, 0) / n;
  const variance = n === 0 ? 0 : sorted.reduce((s, x) => s + (x - mean) ** 2, 0) / n;
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    p999: percentile(sorted, 99.9),
    max: n === 0 ? 0 : sorted[n - 1],
    mean,
    stddev: Math.sqrt(variance),
  };
}

/** Every answer, and the granted ones apart from the turned-away ones. */
export function splitLatency(grantedMs: readonly number[], turnedAwayMs: readonly number[]): LatencySplit {
  return {
    all: summariseLatency([...grantedMs, ...turnedAwayMs]),
    granted: summariseLatency(grantedMs),
    turnedAway: summariseLatency(turnedAwayMs),
  };
}
