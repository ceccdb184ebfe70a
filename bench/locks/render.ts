import type { MachineInfo } from '../types';
import type { LockBenchResult } from './aggregate';
import { bestPeer, handoffShare, lockTargets, missedTargets, ratiosToBestPeer } from './lock-targets';
import type { SectionCeiling } from './section-ceiling';

export interface LockBenchReport {
  readonly startedAt: string;
  readonly machine: MachineInfo;
  readonly settings: {
    readonly processes: number;
    readonly waiters: number;
    readonly seconds: number;
    readonly rounds: number;
    readonly leaseMs: number;
  };
  readonly method: string;
  /** The section alone with no lock, in the same run (absent from runs made before it was measured). */
  readonly ceiling?: SectionCeiling;
  readonly results: LockBenchResult[];
}

const header = [
  'lock',
  'grants/s',
  'of ceiling',
  'rounds grants/s',
  'failed',
  'max wait ms',
  'p99 wait ms',
  'per waiter min/max',
  'Jain',
  'per process',
  'counter = grants',
];

function label(r: LockBenchResult): string {
  if (r.ours) return `${r.contender} (ours)`;
  return r.atDefaults ? `${r.contender} (defaults)` : r.contender;
}

/** grants/s as a share of the section's own rate with no lock ('–' for a run that did not measure it). */
export function ofCeiling(r: LockBenchResult, ceiling: SectionCeiling | undefined): string {
  return ceiling && ceiling.sectionPerSec > 0 ? (r.grantsPerSec / ceiling.sectionPerSec).toFixed(2) : '–';
}

function cells(r: LockBenchResult, ceiling: SectionCeiling | undefined): string[] {
  return [
    label(r),
    r.grantsPerSec.toFixed(0),
    ofCeiling(r, ceiling),
    (r.roundsGrantsPerSec ?? [r.grantsPerSec]).map((g) => g.toFixed(0)).join(' '),
    String(r.failedAcquisitions),
    String(r.maxWaitMs),
    String(r.p99WaitMs),
    `${r.minGrantsPerWaiter}/${r.maxGrantsPerWaiter}`,
    r.jain.toFixed(3),
    `${r.grantsPerProcess.join(' ')} (±${(r.processDeviation * 100).toFixed(0)}%)`,
    r.counterMatches
      ? `yes (${r.counter})`
      : r.counter !== r.grants
        ? `NO ${r.counter}≠${r.grants}`
        : 'NO (in another round)',
  ];
}

/** Where each of ours stands against the targets, and how much hand-off adds. */
export function lockVerdictLines(report: LockBenchReport): string[] {
  const ceiling = report.ceiling?.sectionPerSec;
  const peer = bestPeer(report.results);
  const lines = ratiosToBestPeer(report.results).map(({ ours, bestPeer, ratio }) => {
    const result = report.results.find((r) => r.contender === ours)!;
    const floor = lockTargets.ratios[ours];
    if (floor === undefined) return `${ours}: ${ratio.toFixed(2)}× ${bestPeer} (no target)`;
    const missed = missedTargets(result, ratio);
    const goal = `≥ ${floor}× ${bestPeer}, 0 failed, Jain ≥ ${lockTargets.jain}, processes within ±${lockTargets.processDeviation * 100}%, max wait ≤ ${lockTargets.maxWaitMs} ms, counter = grants`;
    const line = `${ours}: ${ratio.toFixed(2)}× ${bestPeer}: ${missed.length ? `NOT met (${missed.join(', ')})` : 'met'}; target ${goal}`;
    const wanted = (peer?.grantsPerSec ?? 0) * floor;
    return ceiling !== undefined && ratio < floor && wanted > ceiling
      ? `${line}. Why: ${floor}× ${bestPeer} is ${wanted.toFixed(0)} grants/s, above the section's own ${ceiling.toFixed(0)}/s with no lock at all: no lock reaches it; ${ours} ran at ${(result.grantsPerSec / ceiling).toFixed(2)} of that ceiling`
      : line;
  });
  if (ceiling !== undefined) {
    lines.unshift(
      `ceiling: the section alone, no lock, ${ceiling.toFixed(0)} sections/s${peer ? `; the best peer at its defaults (${peer.contender}) ran at ${(peer.grantsPerSec / ceiling).toFixed(2)} of it` : ''}`,
    );
  }
  const share = handoffShare(report.results);
  if (share) {
    lines.push(
      `local hand-off: ${share.withHandoff.toFixed(2)}× the best peer with it, ${share.without.toFixed(2)}× without it`,
    );
  }
  return lines;
}

export function renderLockTable(report: LockBenchReport): string {
  const rows = [header, ...report.results.map((r) => cells(r, report.ceiling))];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [
    line(header),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...report.results.map((r) => line(cells(r, report.ceiling))),
    '',
    ...lockVerdictLines(report),
  ].join('\n');
}

export function renderLockMarkdown(report: LockBenchReport): string {
  const m = report.machine;
  const s = report.settings;
  return [
    `# Lock micro-bench, ${report.startedAt}`,
    '',
    `- Machine: ${m.cpus} × ${m.cpuModel}, ${m.totalMemGb} GB, ${m.platform}`,
    `- Node: ${m.node}`,
    `- Run: ${s.processes} processes × ${s.waiters} waiters, ${s.seconds} s per lock and round, ${s.rounds} round(s), lease ${s.leaseMs} ms`,
    '',
    `Method: ${report.method}${report.ceiling ? ` Ceiling: ${report.ceiling.method}` : ''}`,
    '',
    `| ${header.join(' | ')} |`,
    `|:---|${header
      .slice(1)
      .map(() => '---:')
      .join('|')}|`,
    ...report.results.map((r) => `| ${cells(r, report.ceiling).join(' | ')} |`),
    '',
    ...lockVerdictLines(report).map((l) => `- ${l}`),
    '',
  ].join('\n');
}
