/** p50 and p99 of a set of durations, by the nearest-rank method; null when there are none. */
export interface LatencySummary {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** The nearest-rank percentile `p` (0 < p ≤ 100) of values sorted ascending. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error('no values');
  if (!(p > 0 && p <= 100)) throw new Error(`percentile ${p} is not in (0, 100]`);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1];
}

export function summarizeLatencies(values: readonly number[]): LatencySummary | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1)! };
}
