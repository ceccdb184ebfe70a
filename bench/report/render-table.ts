import { checkLine, checkTargets } from '../targets';
import type { BenchReport, LoadResult } from '../types';
import { ceilingsLine, columns } from './columns';

const red = (text: string) => `\x1b[31m${text}\x1b[0m`;

/** One load's table: a row per strategy, correctness failures in red when `color`. */
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

/** The terminal report: the run, the ceilings, a table per load, then the targets. */
export function renderTable(report: BenchReport, color = false): string {
  const m = report.machine;
  const s = report.settings;
  const targets = checkTargets(report).map((t) => checkLine(t));
  return [
    `${m.cpus} × ${m.cpuModel}, Node ${m.node}; stock ${s.stock}, ${s.requests} requests, ${s.connections} connections`,
    ceilingsLine(report.ceilings),
    ...report.loads.flatMap((load) => ['', `workMs ${load.workMs}`, renderLoadTable(load, color)]),
    '',
    ...targets,
  ].join('\n');
}
