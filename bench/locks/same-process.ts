import type { WorkerReport } from './messages';

/**
 * Pure: of the window's grants after its first, the share whose previous grant ran in the same
 * process (the lock stayed there), the order of the grants being the counter values their sections
 * read. Such a grant needs no wake-up in another process: a lock that lets its holder's process go
 * again (a local hand-off, or a retry that wins the race) makes fewer hand-offs between processes
 * than one that serves the processes in turn. Two holders that read one value (the counter check
 * fails then) count as one grant. Undefined when no process reported its places.
 */
export function sameProcessShare(
  reports: readonly Pick<WorkerReport, 'processIndex' | 'places'>[],
): number | undefined {
  const processOf = new Map<number, number>();
  for (const report of reports) for (const place of report.places ?? []) processOf.set(place, report.processIndex);
  let pairs = 0;
  let same = 0;
  for (const [place, processIndex] of processOf) {
    const before = processOf.get(place - 1);
    if (before === undefined) continue;
    pairs += 1;
    if (before === processIndex) same += 1;
  }
  return pairs > 0 ? same / pairs : undefined;
}

/** A row's share of grants that stayed in their process, and the hand-offs between processes per second that left. */
export function stayedFigures(grantsPerSec: number, share: number): { percent: string; perSec: string } {
  return { percent: `${(share * 100).toFixed(1)}%`, perSec: (grantsPerSec * (1 - share)).toFixed(0) };
}

/** The verdicts' line: each lock's share of grants that stayed in their process, and its hand-offs between processes per second. */
export function sameProcessLine(
  results: readonly { contender: string; grantsPerSec: number; sameProcessShare?: number }[],
): string | undefined {
  const rows = results.flatMap(({ contender, grantsPerSec, sameProcessShare: share }) => {
    if (share === undefined) return [];
    const { percent, perSec } = stayedFigures(grantsPerSec, share);
    return [`${contender} ${percent} (${perSec}/s)`];
  });
  if (rows.length === 0) return undefined;
  return `the lock stayed in its process (grants whose previous grant, in the counter's order, ran in the same process; then hand-offs between processes per second): ${rows.join(', ')}`;
}
