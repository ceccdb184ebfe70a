import type { MachineInfo } from '../types';
import { lockTargets, meetsTargets, ratiosToBestPeer, type LockBenchResult } from './aggregate';

export interface LockBenchReport {
  readonly startedAt: string;
  readonly machine: MachineInfo;
  readonly settings: {
    readonly processes: number;
    readonly waiters: number;
    readonly grants: number;
    readonly rounds: number;
    readonly leaseMs: number;
  };
  readonly method: string;
  readonly results: LockBenchResult[];
}

const header = [
  'lock',
  'grants/s',
  'rounds grants/s',
  'failed',
  'max wait ms',
  'p99 wait ms',
  'per waiter min/max',
  'Jain',
  'counter = grants',
];

function cells(r: LockBenchResult): string[] {
  return [
    r.ours ? `${r.contender} (ours)` : r.contender,
    r.grantsPerSec.toFixed(0),
    (r.roundsGrantsPerSec ?? [r.grantsPerSec]).map((g) => g.toFixed(0)).join(' '),
    String(r.failedAcquisitions),
    String(r.maxWaitMs),
    String(r.p99WaitMs),
    `${r.minGrantsPerWaiter}/${r.maxGrantsPerWaiter}`,
    r.jain.toFixed(3),
    r.counterMatches ? `yes (${r.counter})` : `NO ${r.counter}≠${r.grants}`,
  ];
}

function ratioLines(report: LockBenchReport): string[] {
  return ratiosToBestPeer(report.results).map(({ ours, bestPeer, ratio }) => {
    const result = report.results.find((r) => r.contender === ours)!;
    const verdict = meetsTargets(result, ratio) ? 'meets' : 'misses';
    return `${ours}: ${ratio.toFixed(2)}× ${bestPeer} (target ≥ ${lockTargets.ratio}×, 0 failed, Jain ≥ ${lockTargets.jain}, max wait ≤ ${lockTargets.maxWaitMs} ms: ${verdict})`;
  });
}

export function renderLockTable(report: LockBenchReport): string {
  const rows = [header, ...report.results.map(cells)];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [
    line(header),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...report.results.map((r) => line(cells(r))),
    '',
    ...ratioLines(report),
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
    `- Run: ${s.processes} processes × ${s.waiters} waiters, ${s.grants} grants per lock and round, ${s.rounds} round(s), lease ${s.leaseMs} ms`,
    '',
    `Method: ${report.method}`,
    '',
    `| ${header.join(' | ')} |`,
    `|:---|${header
      .slice(1)
      .map(() => '---:')
      .join('|')}|`,
    ...report.results.map((r) => `| ${cells(r).join(' | ')} |`),
    '',
    ...ratioLines(report).map((l) => `- ${l}`),
    '',
  ].join('\n');
}
