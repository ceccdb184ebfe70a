/** How a crowd's run is judged from outside: arrival order kept, and a room's pace. */

/** Of the pairs scheduled at least `apartMs` apart, the share whose tickets are in the other order. */
export function outOfOrderShare(buyers: readonly { scheduledAt: number; ticket?: number }[], apartMs: number): number {
  const ticketed = buyers.filter((b) => b.ticket !== undefined);
  let pairs = 0;
  let swapped = 0;
  for (const a of ticketed)
    for (const b of ticketed)
      if (b.scheduledAt - a.scheduledAt >= apartMs) {
        pairs++;
        if (b.ticket! < a.ticket!) swapped++;
      }
  return pairs ? swapped / pairs : 0;
}

/** The most of `times` (ms) inside any window of `windowMs` (a window [t, t + windowMs)). */
export function mostInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let lo = 0, hi = 0; hi < sorted.length; hi++) {
    while (sorted[hi] - sorted[lo] >= windowMs) lo++;
    most = Math.max(most, hi - lo + 1);
  }
  return most;
}
