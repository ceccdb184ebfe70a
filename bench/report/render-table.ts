import { lessonLines } from '../lessons';
import type { BenchReport, LoadResult } from '../types';
import { ceilingsLine, loadGrid, summaryColumns } from './columns';
import { textGrid } from './grid';

/** One load's summary: a row per strategy, correctness failures in red when `color`. */
export function renderLoadTable(load: LoadResult, color = false): string {
  return textGrid(loadGrid(load, summaryColumns), color).join('\n');
}

/** The terminal report: the run, the ceilings, a summary per load (the lessons come apart, last). */
export function renderTable(report: BenchReport, color = false): string {
  const m = report.machine;
  const s = report.settings;
  return [
    `${m.cpus} × ${m.cpuModel}, Node ${m.node}`,
    `stock ${s.stock}, ${s.requests} grabs per round over ${s.connections} connections`,
    ceilingsLine(report.ceilings),
    ...report.loads.flatMap((load) => ['', `workMs ${load.workMs}`, renderLoadTable(load, color)]),
  ].join('\n');
}

/** What the run teaches, for the end of the terminal output. */
export function renderLessons(report: BenchReport): string {
  return ['What this run teaches:', ...lessonLines(report.lessons)].join('\n');
}
