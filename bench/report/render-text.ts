/** The text reports: the terminal's (printed by npm run bench) and the README's Markdown sections, and the report's legend. */
import type { BenchReport, Lesson, LoadResult } from '../types';
import { ceilingsLine, columns, loadGrid, summaryColumns } from './columns';
import { wrap } from '../../tools/report/format';
import { renderGrid } from '../../tools/report/table';

export const LEGEND =
  'Verdict: correct, or what went wrong: OVERSOLD (more grants than stock), LOST UPDATES (decrements overwritten), ' +
  'TWO HOLDERS (two requests inside one lock at once, for strategies that promise exclusion), UNDERSOLD (stock left while ' +
  'buyers were turned away with 429, 503 or no answer), FAILED (an answer outside the contract, such as a 500), NOT ' +
  'RECONCILED (the 200s seen differ from the grant rows); "expected" follows when it is not the one scenarios.ts declares. ' +
  'of ceiling: grabs/s as a share of the lowest ceiling its grabs pass through. hand-off: mean time from one exit of ' +
  'the database section to the next entry. CPU µs/request: the whole machine’s CPU (every process) from the round’s ' +
  'start to its last answer, per request. ' +
  'redis-stream answers 202 (accepted) and grants later: its grabs/s are accepted/s, its 200 column counts 202s, it is ' +
  'judged once its order stream drained, and accept→durable runs from Redis’s acceptance to the grant row.';

/** What the HTML report says of the run before its tables (the method names its settings). */
export const runFacts = ({ machine: m, ...report }: BenchReport): string[] => [
  `Machine: ${m.cpus} × ${m.cpuModel}, ${m.totalMemGb} GB, ${m.platform}; Node ${m.node}`,
  ceilingsLine(report.ceilings),
  `Method: ${report.method}`,
];

/** The terminal report: the run, the ceilings, a summary per load, correctness failures in red when `color`. */
export function renderTable(report: BenchReport, color = false): string {
  const { machine: m, settings: s } = report;
  const table = (load: LoadResult) => renderGrid(loadGrid(load, summaryColumns), color ? 'color' : 'text');
  return [
    `${m.cpus} × ${m.cpuModel}, Node ${m.node}`,
    `stock ${s.stock}, ${s.requests} grabs per round over ${s.connections} connections`,
    ceilingsLine(report.ceilings),
    ...report.loads.flatMap((load) => ['', `workMs ${load.workMs}`, ...table(load)]),
  ].join('\n');
}

/** The lessons for the end of the terminal output: held or not, the sentence, and when not held, the two numbers. */
export function renderLessons({ lessons }: Pick<BenchReport, 'lessons'>, width = 100): string {
  const pad = ' '.repeat(11);
  const lines = lessons.flatMap((l) =>
    [l.text, ...(l.notHeld ? [`(${l.notHeld})`] : [])]
      .flatMap((text) => wrap(text, width, pad).split('\n'))
      .map((line, i) => (i === 0 ? (l.held ? 'held' : 'not held').padEnd(pad.length) + line.trimStart() : line)),
  );
  return ['What this run teaches:', ...lines].join('\n');
}

export const markdownTable = (load: LoadResult): string[] => renderGrid(loadGrid(load, columns), 'markdown');

export const lessonItem = (l: Lesson): string =>
  `- ${l.text} **${l.held ? 'Held' : 'Not held'}**${l.notHeld ? `: ${l.notHeld}` : ''}.`;
