import type { Utilisation } from '../types';

export interface Interval {
  readonly start: number;
  readonly end: number;
}

/** Total length covered by at least one interval (overlaps counted once). */
export function unionLength(intervals: readonly Interval[]): number {
  const sorted = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  let covered = 0;
  let runStart = Number.NaN;
  let runEnd = Number.NaN;
  for (const { start, end } of sorted) {
    if (Number.isNaN(runEnd) || start > runEnd) {
      if (!Number.isNaN(runEnd)) covered += runEnd - runStart;
      runStart = start;
      runEnd = end;
    } else if (end > runEnd) {
      runEnd = end;
    }
  }
  if (!Number.isNaN(runEnd)) covered += runEnd - runStart;
  return covered;
}

/**
 * Lock utilisation over the window from the first entry to the last exit: the share of it in
 * which some holder was inside the critical section. Gaps are hand-off time (release, wake-up,
 * acquire round trips) during which waiters queued and nobody worked.
 */
export function utilisation(intervals: readonly Interval[]): Utilisation {
  if (intervals.length === 0) return { busyShare: 0, meanHolders: 0, windowMs: 0 };
  const windowStart = Math.min(...intervals.map((i) => i.start));
  const windowEnd = Math.max(...intervals.map((i) => i.end));
  const windowMs = windowEnd - windowStart;
  if (windowMs <= 0) return { busyShare: 1, meanHolders: intervals.length, windowMs: 0 };
  const inside = intervals.reduce((s, i) => s + Math.max(0, i.end - i.start), 0);
  return { busyShare: unionLength(intervals) / windowMs, meanHolders: inside / windowMs, windowMs };
}

/** Share of the grants' window (first entry to last exit) covered by `held` intervals. */
export function heldShare(held: readonly Interval[], grants: readonly Interval[]): number {
  if (grants.length === 0) return 0;
  const start = Math.min(...grants.map((i) => i.start));
  const end = Math.max(...grants.map((i) => i.end));
  if (end <= start) return 1;
  const clipped = held.map((i) => ({ start: Math.max(i.start, start), end: Math.min(i.end, end) }));
  return unionLength(clipped) / (end - start);
}
