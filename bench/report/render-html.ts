import { checkTargets } from '../targets';
import type { BenchReport } from '../types';
import { columns } from './columns';
import { barChart, escapeXml } from './svg-charts';

const green = '#2e7d32';
const red = '#c62828';

/** One self-contained HTML page: inline CSS and SVG, no script, no external resource. */
export function renderHtml(report: BenchReport): string {
  const m = report.machine;
  const s = report.settings;
  const results = report.results;
  const verdictColor = (correct: boolean) => (correct ? green : red);
  const throughput = barChart(
    'Throughput per strategy',
    'grabs/s',
    [{ name: 'grabs/s', color: green }],
    results.map((r) => ({
      label: r.strategy,
      values: [r.grabsPerSec],
      colors: [verdictColor(r.verdict.correct)],
      note: r.verdict.label,
    })),
  );
  const correctness = barChart(
    'Oversold and lost updates per strategy',
    'coupons',
    [
      { name: 'oversold', color: red },
      { name: 'lost updates', color: '#ef6c00' },
    ],
    results.map((r) => ({ label: r.strategy, values: [r.audit.oversold, r.audit.lostUpdates] })),
  );
  const latency = barChart(
    'Latency percentiles',
    'ms',
    [
      { name: 'p50', color: '#90caf9' },
      { name: 'p99', color: '#1e88e5' },
      { name: 'p99.9', color: '#0d47a1' },
    ],
    results.map((r) => ({ label: r.strategy, values: [r.latency.p50, r.latency.p99, r.latency.p999] })),
  );
  const head = columns.map((c) => `<th class="${c.align}">${escapeXml(c.header)}</th>`).join('');
  const rows = results
    .map(
      (r) =>
        `<tr>${columns
          .map((c) => `<td class="${c.align}${c.alarming?.(r) ? ' bad' : ''}">${escapeXml(c.value(r))}</td>`)
          .join('')}</tr>`,
    )
    .join('\n');
  const targets = checkTargets(report)
    .map(
      (t) =>
        `<li class="${t.met === false ? 'bad' : ''}">${t.met === undefined ? '–' : t.met ? 'met' : 'NOT met'}: ${escapeXml(t.target)}: ${escapeXml(t.measured)}</li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>oversell-lab strategy comparison ${escapeXml(report.startedAt)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; }
table { border-collapse: collapse; font-size: 13px; margin: 1rem 0; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 8px; white-space: nowrap; }
th { background: #f4f4f4; }
.right { text-align: right; } .left { text-align: left; }
.bad { color: ${red}; font-weight: 600; }
.method { max-width: 60rem; color: #444; }
figure { margin: 1.5rem 0; }
</style>
</head>
<body>
<h1>Strategy comparison</h1>
<ul>
<li>Machine: ${m.cpus} × ${escapeXml(m.cpuModel)}, ${m.totalMemGb} GB, ${escapeXml(m.platform)}</li>
<li>Node: ${escapeXml(m.node)}</li>
<li>Run: ${escapeXml(report.startedAt)} → ${escapeXml(report.finishedAt)}; stock ${s.stock}, ${s.requests} requests (warm-up ${s.warmupRequests}), ${s.connections} connections, workMs ${s.workMs}, segments ${s.segments}${s.quick ? ', quick' : ''}; ${report.target.replicas} replicas behind nginx</li>
</ul>
<p class="method">${escapeXml(report.method)}</p>
<table>
<thead><tr>${head}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
<h2>Targets</h2>
<ul>
${targets}
</ul>
<figure>${throughput}</figure>
<figure>${correctness}</figure>
<figure>${latency}</figure>
</body>
</html>
`;
}
