import { checkLine, checkTargets } from '../targets';
import type { BenchReport, LoadResult } from '../types';
import { ceilingsLine, columns } from './columns';

const escapeCell = (text: string) => text.replace(/\|/g, '\\|');

export const LEGEND =
  'Verdict: correct, or what went wrong: OVERSOLD (more grants than stock), LOST UPDATES (decrements overwritten), ' +
  'TWO HOLDERS (two requests inside one lock at once, for strategies that promise exclusion), UNDERSOLD (stock left while ' +
  'buyers were turned away with 429, 503 or no answer), FAILED (an answer outside the contract, such as a 500), NOT ' +
  'RECONCILED (the 200s seen differ from the grant rows). as expected: the verdict scenarios.ts declares for the strategy. ' +
  'of ceiling: grabs/s as a share of the lowest ceiling its grabs pass through. util: share of the window (first entry to ' +
  'last exit) with a holder inside the database section; lock held: share of it with the lock held.';

export function markdownTable(load: LoadResult): string[] {
  return [
    `| ${columns.map((c) => c.header).join(' | ')} |`,
    `|${columns.map((c) => (c.align === 'right' ? '---:' : ':---')).join('|')}|`,
    ...load.results.map(
      (r) =>
        `| ${columns
          .map((c) => {
            const text = escapeCell(c.value(r));
            return c.alarming?.(r) ? `**${text}**` : text;
          })
          .join(' | ')} |`,
    ),
  ];
}

/** The Markdown report: machine and method first, the ceilings, a table per load, the targets. */
export function renderMarkdown(report: BenchReport): string {
  const m = report.machine;
  const s = report.settings;
  const targets = checkTargets(report).map((t) => `- ${checkLine(t)}`);
  return [
    `# Strategy comparison, ${report.startedAt}`,
    '',
    `- Machine: ${m.cpus} × ${m.cpuModel}, ${m.totalMemGb} GB, ${m.platform}`,
    `- Node: ${m.node}`,
    `- Run: stock ${s.stock}, ${s.requests} requests (warm-up ${s.warmupRequests}), ${s.connections} connections, loads workMs ${s.loads.join(' and ')}, segments ${s.segments}${s.quick ? ', quick' : ''}; ${report.target.replicas} replicas behind ${report.target.nginxUrl}`,
    '',
    `Method: ${report.method}`,
    '',
    `${ceilingsLine(report.ceilings)}. ${report.ceilings.method}`,
    ...report.loads.flatMap((load) => ['', `## workMs ${load.workMs}`, '', ...markdownTable(load)]),
    '',
    LEGEND,
    '',
    '## Targets',
    '',
    ...targets,
    '',
  ].join('\n');
}
