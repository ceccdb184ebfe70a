import { wrap } from '../report/format';
import { renderGrid, type Grid } from '../report/grid';
import { machineInfo } from '../machine';
import type { LockBenchResult } from './aggregate';
import { NO_LOCK } from './contenders';
import { lockLessons } from './lessons';

export type LockSettings = Record<'processes' | 'waiters' | 'seconds' | 'warmUpSeconds' | 'rounds' | 'leaseMs', number>;

/** bench/results/locks-<timestamp>.json; the ceiling is the section alone with no lock (one process, one waiter). */
export function lockReport(startedAt: string, settings: LockSettings, [alone, ...results]: LockBenchResult[]) {
  return {
    startedAt,
    machine: machineInfo(),
    settings,
    method: method(settings),
    ceiling: { sectionPerSec: alone.grantsPerSec, readings: alone.roundsGrantsPerSec ?? [alone.grantsPerSec] },
    results,
    lessons: lockLessons(results, alone.grantsPerSec),
  };
}

/** How the run measured, from its settings. */
function method(o: LockSettings): string {
  return (
    `Each round: the section alone (one process, one waiter, no lock), then each contender in ${o.processes} fresh ` +
    `processes × ${o.waiters} waiters looping acquire → GET and SET of a counter → release on one resource ` +
    `(${o.warmUpSeconds} s warm-up, ${o.seconds} s counted), the first contender rotating. Waits run from wanting the ` +
    'lock to entering the section. Median round by grants/s; the longest wait, failures, counter checks and the ' +
    `lowest Jain over every round. Peers at their defaults; the ablation is ours with handoffLimit 0.`
  );
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
  const lessons = lessonLines(report).map((l) => `\n- ${wrap(l, 98).replaceAll('\n', '\n  ')}`);
  return `${wrap(runText(report), 100)}\n\n${renderGrid(lockGrid(report)).join('\n')}\n\nLessons:${lessons.join('')}`;
}

/** The Markdown report: the same, with the method. */
export function renderLockMarkdown(report: LockBenchReport): string {
  const table = renderGrid(lockGrid(report), 'markdown').join('\n');
  const lessons = lessonLines(report).map((l) => `- ${l}\n`);
  const blocks = [`# Lock micro-bench, ${report.startedAt}`, runText(report), `Method: ${report.method}`, table];
  return `${blocks.join('\n\n')}\n\n## Lessons\n\n${lessons.join('')}`;
}
