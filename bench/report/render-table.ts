import type { BenchReport } from '../types';
import { columns } from './columns';

const red = (text: string) => `\x1b[31m${text}\x1b[0m`;

/** The terminal table: one row per strategy, correctness failures in red when `color`. */
export function renderTable(report: BenchReport, color = false): string {
  const cells = report.results.map((r) => columns.map((c) => c.value(r)));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((row) => row[i].length)));
  const pad = (text: string, i: number) =>
    columns[i].align === 'left' ? text.padEnd(widths[i]) : text.padStart(widths[i]);
  const lines = [
    columns.map((c, i) => pad(c.header, i)).join('  '),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...report.results.map((r, row) =>
      columns
        .map((c, i) => {
          const text = pad(cells[row][i], i);
          return color && c.alarming?.(r) ? red(text) : text;
        })
        .join('  ')
        .trimEnd(),
    ),
  ];
  const m = report.machine;
  return [
    `${m.cpus} × ${m.cpuModel}, Node ${m.node}; stock ${report.settings.stock}, ${report.settings.requests} requests, ${report.settings.connections} connections, workMs ${report.settings.workMs}`,
    ...lines,
  ].join('\n');
}
