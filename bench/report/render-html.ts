import { sellOutSection } from '../sell-out/sell-out-chart';
import { slowDbSection } from '../slow-db/slow-db-chart';
import type { BenchReport, Lesson, LoadResult, StrategyResult } from '../types';
import { columns, commitsPerGrant, loadGrid } from './columns';
import { titles } from './evidence';
import { htmlTable } from '../../tools/report/table';
import { LEGEND, runFacts } from './render-text';
import { escapeXml } from '../../tools/report/format';
import { barChart, type BarRow } from './bar-chart';

const green = '#2e7d32';
const red = '#c62828';
const grey = '#bdbdbd';

/** A series: its name, its colour and the figure it reads of each strategy. */
type Series = [name: string, color: string, value: (r: StrategyResult) => number];

function loadSection(load: LoadResult): string {
  const w = load.workMs;
  const bars = (title: string, unit: string, series: Series[], row?: (r: StrategyResult) => Partial<BarRow>) => {
    const rows = load.results.map((r) => ({ label: r.strategy, values: series.map(([, , v]) => v(r)), ...row?.(r) }));
    const legend = series.map(([name, color]) => ({ name, color }));
    return `<figure>${barChart(title, unit, legend, rows)}</figure>`;
  };
  return [
    `<h2>workMs ${w}</h2>`,
    htmlTable(loadGrid(load, columns)),
    bars(
      titles.throughput(w),
      'grabs/s',
      [
        ['grabs/s', green, (r) => r.grabsPerSec],
        ['ceiling', grey, (r) => r.bound.perSec],
      ],
      (r) => ({ colors: [r.verdict.correct ? green : red, grey], note: r.verdict.label }),
    ),
    bars(titles.correctness(w), 'coupons', [
      ['oversold', red, (r) => r.audit.oversold],
      ['lost updates', '#ef6c00', (r) => r.audit.lostUpdates],
    ]),
    bars(`Latency at workMs ${w}: granted and turned away`, 'ms', [
      ['granted p50', '#a5d6a7', (r) => r.latency.granted?.p50 ?? 0],
      ['granted p99', green, (r) => r.latency.granted?.p99 ?? 0],
      ['turned away p99', '#1e88e5', (r) => r.latency.turnedAway?.p99 ?? 0],
    ]),
    bars(titles.commits(w), 'commits', [['commits per grant', '#6a1b9a', (r) => commitsPerGrant(r) ?? 0]]),
  ].join('\n');
}

const lessonListItem = (l: Lesson) =>
  `<li><span class="${l.held ? 'held' : 'bad'}">${l.held ? 'held' : 'not held'}</span> ${escapeXml(l.text)}` +
  (l.notHeld ? ` <span class="bad">(${escapeXml(l.notHeld)})</span>` : '') +
  (l.shownBy ? ` <span class="see">see: ${escapeXml(l.shownBy)}</span>` : '') +
  '</li>';

/** One self-contained HTML page: inline CSS and SVG, no script, no external resource. */
export function renderHtml(report: BenchReport): string {
  const facts = runFacts(report).map((fact) => `<li>${escapeXml(fact)}</li>`);
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
li { margin: 0.3rem 0; max-width: 60rem; } .see { color: #666; font-style: italic; }
.method { max-width: 60rem; color: #444; }
figure { margin: 1.5rem 0; }
</style>
</head>
<body>
<h1>Strategy comparison, ${escapeXml(report.startedAt)}</h1>
<h2>What this run teaches</h2>
<ul>
${report.lessons.map(lessonListItem).join('\n')}
</ul>
<ul>
${facts.join('\n')}
</ul>
${report.loads.map(loadSection).join('\n')}
${sellOutSection(report.sellOut)}
${slowDbSection(report.slowDb)}
<p class="method">${escapeXml(LEGEND)}</p>
</body>
</html>
`;
}
