import type { ReplicaSample } from './replica-samples';

/** One replica process's memory over the measured window (after the warm-up). */
export interface ProcessGrowth {
  readonly replica: string;
  readonly startedAt: number;
  readonly fromMs: number;
  readonly toMs: number;
  readonly firstRssMb: number;
  readonly lastRssMb: number;
  /** last / first − 1. */
  readonly rssGrowth: number;
  readonly firstHeapMb: number;
  readonly lastHeapMb: number;
}

/**
 * RSS growth of every replica process that lived through the whole measured window: from the
 * first sample after the warm-up to the last sample. A process restarted by a fault starts over
 * and is judged only if it too spans the window from its own warm-up on.
 */
export function memoryGrowth(samples: readonly ReplicaSample[], warmupMs: number): ProcessGrowth[] {
  const byProcess = new Map<string, ReplicaSample[]>();
  for (const s of samples) {
    const key = `${s.replica}@${s.startedAt}`;
    byProcess.set(key, [...(byProcess.get(key) ?? []), s]);
  }
  const endMs = Math.max(0, ...samples.map((s) => s.atMs));
  const out: ProcessGrowth[] = [];
  for (const series of byProcess.values()) {
    const born = series[0].atMs;
    const measured = series.filter((s) => s.atMs >= Math.max(warmupMs, born + warmupMs));
    // Judged only when it ran until the end and for at least as long again as its warm-up.
    if (measured.length < 2 || measured.at(-1)!.atMs < endMs || measured.at(-1)!.atMs - measured[0].atMs < warmupMs)
      continue;
    const [first, last] = [measured[0], measured.at(-1)!];
    out.push({
      replica: first.replica,
      startedAt: first.startedAt,
      fromMs: first.atMs,
      toMs: last.atMs,
      firstRssMb: first.rssMb,
      lastRssMb: last.rssMb,
      rssGrowth: last.rssMb / first.rssMb - 1,
      firstHeapMb: first.heapMb,
      lastHeapMb: last.heapMb,
    });
  }
  return out;
}

/**
 * The event loop's p99 over the soak, leaving out each process's first `startupMs` (a restarted
 * replica compiles its code then) — the only stalls the soak does not cause on purpose elsewhere.
 */
export function lagP99(samples: readonly ReplicaSample[], startupMs: number): number {
  const firstSeen = new Map<string, number>();
  for (const s of samples)
    if (!firstSeen.has(`${s.replica}@${s.startedAt}`)) firstSeen.set(`${s.replica}@${s.startedAt}`, s.atMs);
  const lags = samples
    .filter((s) => s.atMs - firstSeen.get(`${s.replica}@${s.startedAt}`)! >= startupMs)
    .map((s) => s.lagP99Ms)
    .sort((a, b) => a - b);
  return lags.length === 0 ? 0 : lags[Math.min(lags.length - 1, Math.ceil(0.99 * lags.length) - 1)];
}
