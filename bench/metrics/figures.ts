/** The small figures of a round: medians, percentiles, fairness, database times, answer counts, the sections' utilisation. */
import { summarizeLatencies } from '@app/stock';

/** The middle of `sorted` (the lower of the two middles for an even count), or undefined when empty. */
export function lowerMedian<T>(sorted: readonly T[]): T | undefined {
  return sorted.length === 0 ? undefined : sorted[Math.floor((sorted.length - 1) / 2)];
}

/** Client-side latency in ms, all 0 when there were none: @app/stock's summary without the count. */
export function summariseLatency(latenciesMs: readonly number[]) {
  const { p50, p99, max } = summarizeLatencies(latenciesMs) ?? { p50: 0, p99: 0, max: 0 };
  return { p50, p99, max };
}
export type LatencySummary = ReturnType<typeof summariseLatency>;

const sum = (xs: readonly number[]) => xs.reduce((total, x) => total + x, 0);
const mean = (xs: readonly number[]) => (xs.length > 0 ? sum(xs) / xs.length : 0);

/**
 * Jain's fairness index, (Σx)² / (n·Σx²): 1 when every share is equal, 1/n when one
 * party got everything. An empty or all-zero list counts as fair (nobody was favoured).
 */
export function jainIndex(shares: readonly number[]): number {
  const [total, squares] = [sum(shares), sum(shares.map((x) => x * x))];
  return squares === 0 ? 1 : (total * total) / (shares.length * squares);
}

/**
 * An ISO 8601 UTC timestamp to epoch ms, keeping the microseconds the database gives
 * (Date.parse drops them, and critical sections last only a few ms).
 */
export function isoToMs(iso: string): number {
  const match = /^(.*T\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:?\d\d)$/.exec(iso);
  if (!match) return Date.parse(iso);
  return Date.parse(`${match[1]}${match[3]}`) + Number(`0${match[2] ?? ''}`) * 1000;
}

/** Answers counted by their key ("confirm 200", "409 STOCK.SOLD_OUT"). */
export function tally(keys: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}

export type Interval = { readonly start: number; readonly end: number };

/** Total length covered by at least one interval (overlaps counted once). */
export function unionLength(intervals: readonly Interval[]): number {
  let covered = 0;
  let reach = -Infinity;
  for (const { start, end } of [...intervals].sort((a, b) => a.start - b.start)) {
    const from = Math.max(start, reach);
    if (end > from) [covered, reach] = [covered + end - from, end];
  }
  return covered;
}

/**
 * The critical sections over the window from the first entry to the last exit: the share of it
 * with some holder inside, how long a section lasts, and the gap between one exit and the next
 * entry, in which waiters queued and nobody worked (the hand-off).
 */
export function utilisation(intervals: readonly Interval[]) {
  if (intervals.length === 0) return { busyShare: 0, meanSectionMs: 0, meanGapMs: 0 };
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const windowMs = Math.max(...sorted.map((i) => i.end)) - sorted[0].start;
  return {
    busyShare: windowMs > 0 ? unionLength(sorted) / windowMs : 1,
    meanSectionMs: mean(sorted.map((i) => Math.max(0, i.end - i.start))),
    meanGapMs: mean(sorted.slice(1).map((next, k) => Math.max(0, next.start - sorted[k].end))),
  };
}

export type Utilisation = ReturnType<typeof utilisation>;
