import { checkTargets } from '../targets';
import type { BenchReport } from '../types';
import { columns } from './columns';

const escapeCell = (text: string) => text.replace(/\|/g, '\\|');

/** The Markdown report: machine and method first, then the table, then the targets. */
export function renderMarkdown(report: BenchReport): string {
  const m = report.machine;
  const s = report.settings;
  const header = `| ${columns.map((c) => c.header).join(' | ')} |`;
  const rule = `|${columns.map((c) => (c.align === 'right' ? '---:' : ':---')).join('|')}|`;
  const rows = report.results.map(
    (r) =>
      `| ${columns
        .map((c) => {
          const text = escapeCell(c.value(r));
          return c.alarming?.(r) ? `**${text}**` : text;
        })
        .join(' | ')} |`,
  );
  const targets = checkTargets(report).map(
    (t) => `- ${t.met === undefined ? '–' : t.met ? 'met' : 'NOT met'}: ${t.target}: ${t.measured}`,
  );
  return [
    `# Strategy comparison, ${report.startedAt}`,
    '',
    `- Machine: ${m.cpus} × ${m.cpuModel}, ${m.totalMemGb} GB, ${m.platform}`,
    `- Node: ${m.node}`,
    `- Run: stock ${s.stock}, ${s.requests} requests (warm-up ${s.warmupRequests}), ${s.connections} connections, workMs ${s.workMs}, segments ${s.segments}${s.quick ? ', quick' : ''}; ${report.target.replicas} replicas behind ${report.target.nginxUrl}`,
    '',
    `Method: ${report.method}`,
    '',
    header,
    rule,
    ...rows,
    '',
    "Verdict: correct, or what went wrong (OVERSOLD: more grants than stock; LOST UPDATES: decrements overwritten; TWO HOLDERS: two requests inside one lock at once). util: share of the window (first entry to last exit) with a holder inside the database section; lock held: share of it with the lock held (from the replicas' lock events). max ms / spread ms: the slowest request and p99 − p50.",
    '',
    '## Targets',
    '',
    ...targets,
    '',
  ].join('\n');
}
