/** The small figures of a round: medians, percentiles, fairness, database times, the sections. */

/** The middle of `sorted` (the lower of the two middles for an even count), or undefined when empty. */
export function lowerMedian<T>(sorted: readonly T[]): T | undefined {
  return sorted.length === 0 ? undefined : sorted[Math.floor((sorted.length - 1) / 2)];
}

const sum = (xs: readonly number[]) => xs.reduce((total, x) => total + x, 0);
const mean = (xs: readonly number[]) => (xs.length > 0 ? sum(xs) / xs.length : 0);

/** Jain's fairness index, (Σx)² / (n·Σx²): 1 when all shares are equal, 1/n when one got all, 1 when all are 0. */
export function jainIndex(shares: readonly number[]): number {
  const [total, squares] = [sum(shares), sum(shares.map((x) => x * x))];
  return squares === 0 ? 1 : (total * total) / (shares.length * squares);
}

/** ISO 8601 to epoch ms, keeping the database's microseconds (Date.parse drops them; sections last a few ms). */
export function isoToMs(iso: string): number {
  const match = /^(.*T\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:?\d\d)$/.exec(iso);
  if (!match) return Date.parse(iso);
  return Date.parse(`${match[1]}${match[3]}`) + Number(`0${match[2] ?? ''}`) * 1000;
}

/** The grant rows' sections (database clock): their mean length, and the mean hand-off from one exit to the next. */
export function utilisation(sections: readonly { readonly start: number; readonly end: number }[]) {
  const sorted = [...sections].sort((a, b) => a.start - b.start);
  return {
    meanSectionMs: mean(sorted.map((s) => Math.max(0, s.end - s.start))),
    meanGapMs: mean(sorted.slice(1).map((next, k) => Math.max(0, next.start - sorted[k].end))),
  };
}

export type Utilisation = ReturnType<typeof utilisation>;
