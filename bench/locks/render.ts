import { wrap } from '../report/format';
import { markdownGrid, textGrid } from '../report/grid';
import type { MachineInfo } from '../types';
import type { LockBenchResult } from './aggregate';
import type { Lesson } from './lessons';
import { NO_LOCK } from './messages';

/** bench/results/locks-<timestamp>.json */
export interface LockBenchReport {
  readonly startedAt: string;
  readonly machine: MachineInfo;
  readonly settings: {
    readonly processes: number;
    readonly waiters: number;
    readonly seconds: number;
    readonly warmUpSeconds?: number;
    readonly rounds: number;
    readonly leaseMs: number;
  };
  readonly method: string;
  /** The section alone with no lock: one process, one waiter, back to back. */
  readonly ceiling?: { readonly sectionPerSec: number; readonly readings: number[] };
  readonly results: LockBenchResult[];
  /** Absent from runs made before the micro-bench stated lessons. */
  readonly lessons?: Lesson[];
}

/** The lock's name left, its figures right. */
const aligned = (header: readonly string[]) => header.map((_, i): 'left' | 'right' => (i ? 'right' : 'left'));
const spread = (r: LockBenchResult) => `±${(r.processDeviation * 100).toFixed(0)}%`;
const counterCell = (r: LockBenchResult) => (r.counterMatches ? 'ok' : r.counter !== r.grants ? 'WRONG' : 'wrong once');

/** grants/s as a share of the section alone ('–' when the run did not measure it). */
export function ofCeiling(r: LockBenchResult, report: Pick<LockBenchReport, 'ceiling'>): string {
  return report.ceiling?.sectionPerSec ? (r.grantsPerSec / report.ceiling.sectionPerSec).toFixed(2) : '–';
}

export function windowPhrase(settings: LockBenchReport['settings']): string {
  const warmUp = settings.warmUpSeconds ? ` after a ${settings.warmUpSeconds} s warm-up` : '';
  return `${settings.seconds} s per lock and round${warmUp}`;
}

/** The ceiling's method, as ` Ceiling${after}: …`, when the report has one. */
export function ceilingMethods(report: LockBenchReport, after = ''): string {
  return report.ceiling ? ` Ceiling${after}: the section alone, no lock, one process, one waiter.` : '';
}

/** The lessons, one line each: whether it held, then the sentence with its numbers. */
export function lessonLines(report: LockBenchReport): string[] {
  return (report.lessons ?? []).map((l) => `${l.held ? 'held' : 'did not hold'}: ${l.text}`);
}

/** The terminal's view, no line over 100 columns: the run, one table, the lessons. */
export function renderLockTable(report: LockBenchReport): string {
  const { settings: s, machine: m, ceiling } = report;
  const header = ['lock', 'grants/s', 'failed', 'max wait', 'p99 wait', 'Jain', 'processes', 'counter'];
  const rows = report.results.map((r) => {
    const figures = [r.grantsPerSec.toFixed(0), r.failedAcquisitions, r.maxWaitMs, r.p99WaitMs, r.jain.toFixed(2)];
    return [r.contender, ...figures.map(String), spread(r), counterCell(r)];
  });
  if (ceiling) rows.push([NO_LOCK, ceiling.sectionPerSec.toFixed(0), ...Array<string>(6).fill('')]);
  const intro =
    `${m.cpus} × ${m.cpuModel}, Node ${m.node}. ${s.processes} processes × ${s.waiters} waiters, ${windowPhrase(s)}, ` +
    `median of ${s.rounds} round(s). Waits in ms; processes: the widest distance of a process's grants from ` +
    'their mean; counter: the sections counted equal the grants.';
  return [
    wrap(intro, 100),
    '',
    ...textGrid({ header, align: aligned(header), rows }),
    '',
    'Lessons:',
    ...lessonLines(report).map((l) => `- ${wrap(l, 98).replaceAll('\n', '\n  ')}`),
  ].join('\n');
}

/** The Markdown report: the run, the method, every figure, the lessons. */
export function renderLockMarkdown(report: LockBenchReport): string {
  const { settings: s, machine: m, ceiling } = report;
  const header = ['lock', 'grants/s', 'of section alone', 'rounds grants/s', 'failed', 'max wait ms', 'p99 wait ms'];
  header.push('grants per waiter', 'Jain', 'grants per process', 'counter = grants');
  const rows = report.results.map((r) => [
    r.ours ? `${r.contender} (ours)` : r.contender,
    ...[r.grantsPerSec.toFixed(0), ofCeiling(r, report), (r.roundsGrantsPerSec ?? [r.grantsPerSec]).join(' ')],
    ...[r.failedAcquisitions, r.maxWaitMs, r.p99WaitMs, `${r.minGrantsPerWaiter}–${r.maxGrantsPerWaiter}`],
    ...[r.jain.toFixed(3), `${r.grantsPerProcess.join(' / ')} (${spread(r)})`, counterCell(r)],
  ]);
  const alone = ceiling && [ceiling.sectionPerSec.toFixed(0), '1.00', ceiling.readings.join(' ')];
  if (alone) rows.push([NO_LOCK, ...alone, ...Array<string>(7).fill('–')]);
  return [
    `# Lock micro-bench, ${report.startedAt}`,
    '',
    `- Machine: ${m.cpus} × ${m.cpuModel}, ${m.totalMemGb} GB, ${m.platform}, Node ${m.node}`,
    `- Run: ${s.processes} processes × ${s.waiters} waiters, ${windowPhrase(s)}, ${s.rounds} round(s), lease ${s.leaseMs} ms`,
    '',
    `Method: ${report.method}${ceilingMethods(report)}`,
    '',
    ...markdownGrid({ header, align: aligned(header), rows: rows.map((row) => row.map(String)) }),
    '',
    '## Lessons',
    '',
    ...lessonLines(report).map((l) => `- ${l}`),
    '',
  ].join('\n');
}
