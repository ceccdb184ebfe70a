/** The middle of `sorted` (the lower of the two middles for an even count), or undefined when empty. */
export function lowerMedian<T>(sorted: readonly T[]): T | undefined {
  return sorted.length === 0 ? undefined : sorted[Math.floor((sorted.length - 1) / 2)];
}
