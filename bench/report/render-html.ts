import { sellOutSection } from '../sell-out/sell-out-chart';
import { slowDbSection } from '../slow-db/slow-db-chart';
import type { BenchReport, LoadResult } from '../types';
import { ceilingsLine, columns, loadGrid } from './columns';
import { titles } from './evidence';
import { htmlTable } from './grid';
import { LEGEND } from './render-markdown';
import { barChart, escapeXml } from './svg-charts';

const green = '#2e7d32';
const red = '#c62828';

function loadSection(load: LoadResult): string {
  const results = load.results;
  const throughput = barChart(
    titles.throughput(load.workMs),
    'grabs/s',
    [
      { name: 'grabs/s', color: green },
      { name: 'ceiling', color: '#bdbdbd' },
    ],
    results.map((r) => ({
      label: r.strategy,
      values: [r.grabsPerSec, r.bound.perSec],
      colors: [r.verdict.correct ? green : red, '#bdbdbd'],
      note: r.verdict.label,
    })),
  );
  const correctness = barChart(
    titles.correctness(load.workMs),
    'coupons',
    [
      { name: 'oversold', color: red },
      { name: 'lost updates', color: '#ef6c00' },
    ],
    results.map((r) => ({ label: r.strategy, values: [r.audit.oversold, r.audit.lostUpdates] })),
  );
  const latency = barChart(
    `Latency at workMs ${load.workMs}: granted and turned away`,
    'ms',
    [
      { name: 'granted p50', color: '#a5d6a7' },
      { name: 'granted p99', color: green },
      { name: 'turned away p99', color: '#1e88e5' },
    ],
    results.map((r) => ({
      label: r.strategy,
      values: [r.latency.granted.p50, r.latency.granted.p99, r.latency.turnedAway.p99],
    })),
  );
  // Transactions that wrote, from PostgreSQL's transaction ids, over grants: 1 for a statement per grant.
  const commits = barChart(
    titles.commits(load.workMs),
    'commits',
    [{ name: 'commits per grant', color: '#6a1b9a' }],
    results.map((r) => ({ label: r.strategy, values: [r.commits !== undefined ? r.commits / r.audit.grants : 0] })),
  );
  return `<h2>workMs ${load.workMs}</h2>
${htmlTable(loadGrid(load, columns))}
<figure>${throughput}</figure>
<figure>${correctness}</figure>
<figure>${latency}</figure>
<figure>${commits}</figure>`;
}

/** One self-contained HTML page: inline CSS and SVG, no script, no external resource. */
export function renderHtml(report: BenchReport): string {
  const m = report.machine;
  const s = report.settings;
  const lessons = report.lessons
    .map(
      (l) =>
        `<li><span class="${l.held ? 'held' : 'bad'}">${l.held ? 'held' : 'not held'}</span> ${escapeXml(l.text)}` +
        `${l.notHeld ? ` <span class="bad">(${escapeXml(l.notHeld)})</span>` : ''}` +
        `${l.shownBy ? ` <span class="see">see: ${escapeXml(l.shownBy)}</span>` : ''}</li>`,
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
.bad { color: ${red}; font-weight: 600; } .held { color: ${green}; font-weight: 600; }
.lessons li { margin: 0.3rem 0; max-width: 60rem; }
.method { max-width: 60rem; color: #444; } .see { color: #666; font-style: italic; }
figure { margin: 1.5rem 0; }
</style>
</head>
<body>
<h1>Strategy comparison</h1>
<h2>What this run teaches</h2>
<ul class="lessons">
${lessons}
</ul>
<ul>
<li>Machine: ${m.cpus} × ${escapeXml(m.cpuModel)}, ${m.totalMemGb} GB, ${escapeXml(m.platform)}</li>
<li>Node: ${escapeXml(m.node)}</li>
<li>Run: ${escapeXml(report.startedAt)} → ${escapeXml(report.finishedAt)}; stock ${s.stock}, ${s.requests} requests (warm-up ${s.warmupRequests}), ${s.connections} connections, loads workMs ${s.loads.join(' and ')}, segments ${s.segments}; ${report.target.replicas} replicas behind nginx</li>
<li>${escapeXml(ceilingsLine(report.ceilings))}</li>
</ul>
<p class="method">${escapeXml(report.method)}</p>
<p class="method">${escapeXml(report.ceilings.method)}</p>
${report.loads.map(loadSection).join('\n')}
${sellOutSection(report.sellOut)}
${slowDbSection(report.slowDb)}
<p class="method">${escapeXml(LEGEND)}</p>
</body>
</html>
`;
}
