import { lessonLines } from '../lessons';
import type { BenchReport, LoadResult } from '../types';
import { ceilingsLine, summaryColumns as columns } from './columns';

const red = (text: string) => `\x1b[31m${text}\x1b[0m`;

/** One load's summary: a row per strategy, correctness failures in red when `color`. */
export function renderLoadTable(load: LoadResult, color = false): string {
  const cells = load.results.map((r) => columns.map((c) => c.value(r)));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((row) => row[i].length)));
  const pad = (text: string, i: number) =>
    columns[i].align === 'left' ? text.padEnd(widths[i]) : text.padStart(widths[i]);
  return [
    columns.map((c, i) => pad(c.header, i)).join('  '),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...load.results.map((r, row) =>
      columns
        .map((c, i) => {
          const text = pad(cells[row][i], i);
          return color && c.alarming?.(r) ? red(text) : text;
        })
        .join('  ')
        .trimEnd(),
    ),
  ].join('\n');
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
