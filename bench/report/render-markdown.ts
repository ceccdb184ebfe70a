/** The text reports: the terminal's (printed by npm run bench) and the Markdown file, from one table renderer. */
import type { BenchReport, Lesson, LoadResult } from '../types';
import { ceilingsLine, columns, loadGrid, summaryColumns } from './columns';
import { wrap } from './format';
import { renderGrid } from './grid';

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

/** One load's summary for a terminal: a row per strategy, correctness failures in red when `color`. */
export function renderLoadTable(load: LoadResult, color = false): string {
  return renderGrid(loadGrid(load, summaryColumns), color ? 'color' : 'text').join('\n');
}

/** The terminal report: the run, the ceilings, a summary per load (the lessons come apart, last). */
export function renderTable(report: BenchReport, color = false): string {
  const { machine: m, settings: s } = report;
  return [
    `${m.cpus} × ${m.cpuModel}, Node ${m.node}`,
    `stock ${s.stock}, ${s.requests} grabs per round over ${s.connections} connections`,
    ceilingsLine(report.ceilings),
    ...report.loads.flatMap((load) => ['', `workMs ${load.workMs}`, renderLoadTable(load, color)]),
  ].join('\n');
}

/** The lessons for a terminal of `width` columns: held or not, the sentence, and when not held, the two numbers. */
export function lessonLines(lessons: readonly Lesson[], width = 100): string[] {
  const pad = ' '.repeat(11);
  return lessons.flatMap((l) =>
    [l.text, ...(l.notHeld ? [`(${l.notHeld})`] : [])]
      .flatMap((text) => wrap(text, width, pad).split('\n'))
      .map((line, i) => (i === 0 ? (l.held ? 'held' : 'not held').padEnd(pad.length) + line.trimStart() : line)),
  );
}

/** What the run teaches, for the end of the terminal output. */
export function renderLessons(report: BenchReport): string {
  return ['What this run teaches:', ...lessonLines(report.lessons)].join('\n');
}

export function markdownTable(load: LoadResult): string[] {
  return renderGrid(loadGrid(load, columns), 'markdown');
}

/** A lesson as a Markdown list item: the sentence, whether it held, and the two numbers when not. */
export function lessonItem(l: Lesson): string {
  return `- ${l.text} **${l.held ? 'Held' : 'Not held'}**${l.notHeld ? `: ${l.notHeld}` : ''}.`;
}

/** The Markdown report: the lessons first, machine and method, the ceilings, a table per load. */
export function renderMarkdown(report: BenchReport): string {
  const m = report.machine;
  const sellOut = report.sellOut?.runs.map(
    (r) => `- ${r.strategy} (${r.segments} row(s)): ${r.sellOutMs} ms, ${r.granted} granted, ${r.stockLeft} left`,
  );
  return [
    `# Strategy comparison, ${report.startedAt}`,
    '',
    ...report.lessons.map(lessonItem),
    '',
    `- Machine: ${m.cpus} × ${m.cpuModel}, ${m.totalMemGb} GB, ${m.platform}; Node ${m.node}`,
    `- ${ceilingsLine(report.ceilings)}`,
    `- Method: ${report.method}`,
    ...report.loads.flatMap((load) => ['', `## workMs ${load.workMs}`, '', ...markdownTable(load)]),
    ...(sellOut ? ['', '## Sell-out race', '', ...sellOut] : []),
    '',
    LEGEND,
    '',
    `Settings: ${JSON.stringify(report.settings)}`,
    '',
  ].join('\n');
}
