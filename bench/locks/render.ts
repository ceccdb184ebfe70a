import { wrap } from '../report/format';
import { renderGrid, type Grid } from '../report/grid';
import { machineInfo } from '../machine';
import type { LockBenchResult } from './aggregate';
import { lockLessons } from './lessons';
import { NO_LOCK } from './messages';

type LockSettings = Readonly<
  Record<'processes' | 'waiters' | 'seconds' | 'warmUpSeconds' | 'rounds' | 'leaseMs', number>
>;

/** bench/results/locks-<timestamp>.json; the ceiling is the section alone with no lock (one process, one waiter). */
export function lockReport(
  run: { readonly startedAt: string; readonly settings: LockSettings; readonly method: string },
  alone: LockBenchResult,
  results: LockBenchResult[],
) {
  return {
    startedAt: run.startedAt,
    machine: machineInfo(),
    settings: run.settings,
    method: run.method,
    ceiling: { sectionPerSec: alone.grantsPerSec, readings: alone.roundsGrantsPerSec ?? [alone.grantsPerSec] },
    results,
    lessons: lockLessons(results, alone.grantsPerSec),
  };
}

export type LockBenchReport = ReturnType<typeof lockReport>;

/** The one table, in the terminal and in Markdown: a row per lock, then the section alone. */
function lockGrid({ results, ceiling }: LockBenchReport): Grid {
  const header = ['lock', 'grants/s', 'failed', 'max wait', 'p99 wait', 'Jain', 'processes', 'counter'];
  const rows = results.map((r) => {
    const figures = [r.grantsPerSec.toFixed(0), r.failedAcquisitions, r.maxWaitMs, r.p99WaitMs, r.jain.toFixed(2)];
    const counter = r.counterMatches ? 'ok' : r.counter !== r.grants ? 'WRONG' : 'wrong once';
    return [r.contender, ...figures.map(String), `±${(r.processDeviation * 100).toFixed(0)}%`, counter];
  });
  rows.push([NO_LOCK, ceiling.sectionPerSec.toFixed(0), ...Array<string>(6).fill('')]);
  return { header, align: header.map((_, i) => (i ? 'right' : 'left')), rows };
}

/** The machine and the run, in one paragraph above the table. */
function runText({ settings: s, machine: m }: LockBenchReport): string {
  return (
    `${m.cpus} × ${m.cpuModel}, Node ${m.node}. ${s.processes} processes × ${s.waiters} waiters, ${s.seconds} s ` +
    `per lock and round after a ${s.warmUpSeconds} s warm-up, median of ${s.rounds} round(s), lease ${s.leaseMs} ms. ` +
    "Waits in ms; processes: the widest distance of a process's grants from their mean; counter: the sections " +
    'counted equal the grants.'
  );
}

/** The lessons, one line each: whether it held, then the sentence with its numbers. */
export function lessonLines(report: LockBenchReport): string[] {
  return report.lessons.map((l) => `${l.held ? 'held' : 'did not hold'}: ${l.text}`);
}

/** The terminal's view, no line over 100 columns: the run, the table, the lessons. */
export function renderLockTable(report: LockBenchReport): string {
  return [
    wrap(runText(report), 100),
    '',
    ...renderGrid(lockGrid(report)),
    '',
    'Lessons:',
    ...lessonLines(report).map((l) => `- ${wrap(l, 98).replaceAll('\n', '\n  ')}`),
  ].join('\n');
}

/** The Markdown report: the same, with the method. */
export function renderLockMarkdown(report: LockBenchReport): string {
  return [
    `# Lock micro-bench, ${report.startedAt}`,
    '',
    runText(report),
    '',
    `Method: ${report.method}`,
    '',
    ...renderGrid(lockGrid(report), 'markdown'),
    '',
    '## Lessons',
    '',
    ...lessonLines(report).map((l) => `- ${l}`),
    '',
  ].join('\n');
}
