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
 * The critical sections over the window from the first entry to the last exit: the share of it
 * with some holder inside, how long a section lasts, and the gap between one exit and the next
 * entry, in which waiters queued and nobody worked (the hand-off).
 */
export function utilisation(intervals: readonly Interval[]) {
  if (intervals.length === 0) return { busyShare: 0, meanSectionMs: 0, meanGapMs: 0 };
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const windowMs = Math.max(...sorted.map((i) => i.end)) - sorted[0].start;
  const meanSectionMs = sorted.reduce((s, i) => s + Math.max(0, i.end - i.start), 0) / sorted.length;
  const gaps = sorted.slice(1).map((next, k) => Math.max(0, next.start - sorted[k].end));
  return {
    busyShare: windowMs > 0 ? unionLength(sorted) / windowMs : 1,
    meanSectionMs,
    meanGapMs: gaps.length > 0 ? gaps.reduce((s, g) => s + g, 0) / gaps.length : 0,
  };
}

export type Utilisation = ReturnType<typeof utilisation>;
