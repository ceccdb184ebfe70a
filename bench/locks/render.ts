import { wrap } from '../../tools/report/format';
import { renderGrid, type Grid } from '../../tools/report/table';
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
    ceiling: { sectionPerSec: alone.grantsPerSec },
    results,
    lessons: lockLessons(results, alone.grantsPerSec),
  };
}

export type LockBenchReport = ReturnType<typeof lockReport>;

/** A row per lock, then the section alone. */
function lockGrid({ results, ceiling }: LockBenchReport): Grid {
  const header = ['lock', 'grants/s', 'failed', 'max wait', 'p99 wait', 'Jain', 'counter'];
  const rows = results.map((r) => {
    const figures = [r.grantsPerSec.toFixed(0), r.failedAcquisitions, r.maxWaitMs, r.p99WaitMs, r.jain.toFixed(2)];
    return [r.contender, ...figures.map(String), r.counterMatches ? 'ok' : 'WRONG'];
  });
  rows.push([NO_LOCK, ceiling.sectionPerSec.toFixed(0), ...Array<string>(5).fill('')]);
  return { header, align: header.map((_, i) => (i ? 'right' : 'left')), rows };
}

/** The terminal's view, no line over 100 columns: the machine and the run, the table, the lessons. */
export function renderLockTable(report: LockBenchReport): string {
  const { settings: s, machine: m } = report;
  const run =
    `${m.cpus} × ${m.cpuModel}, Node ${m.node}. ${s.processes} processes × ${s.waiters} waiters, ${s.seconds} s ` +
    `per lock and round after a ${s.warmUpSeconds} s warm-up, median of ${s.rounds} round(s), lease ${s.leaseMs} ms. ` +
    'Waits in ms; Jain over every waiter; counter: the sections counted equal the sections run.';
  const lessons = report.lessons.map((l) => `${l.held ? 'held' : 'did not hold'}: ${l.text}`);
  const items = lessons.map((l) => `\n- ${wrap(l, 98).replaceAll('\n', '\n  ')}`);
  return `${wrap(run, 100)}\n\n${renderGrid(lockGrid(report)).join('\n')}\n\nLessons:${items.join('')}`;
}
