import { lineChart } from '../report/line-chart';
import { escapeXml } from '../report/svg-charts';
import { medianRun, type SellOutResult } from './sell-out-round';

const COLORS = ['#1565c0', '#2e7d32', '#c62828', '#6a1b9a', '#ef6c00', '#00838f', '#5d4037', '#9e9d24'];

/** The HTML section: sell-out times, and each segment's stock over the median segmented run. */
export function sellOutSection(result: SellOutResult | undefined): string {
  if (!result) return '';
  const rows = result.runs
    .map(
      (r) =>
        `<tr><td class="left">${escapeXml(r.strategy)}</td><td class="right">${r.segments}</td><td class="right">${r.sellOutMs}</td><td class="right">${r.granted}</td><td class="right">${r.stockLeft}</td></tr>`,
    )
    .join('\n');
  const run = medianRun(result, 'segmented');
  const chart = run
    ? lineChart(
        `segmented: each segment's stock over the median run (${run.sellOutMs} ms)`,
        'units',
        Array.from({ length: run.segments }, (_, i) => ({
          name: `segment ${i}`,
          color: COLORS[i % COLORS.length],
          points: run.samples.map((s): [number, number] => [s.atMs / 1000, s.stocks[i] ?? 0]),
        })),
        [],
      )
    : '';
  return `<h2>Sell-out time</h2>
<p class="method">${result.buyers} buyers for ${result.stock} units, ${result.inFlight} in flight, workMs ${result.workMs}, from the first request to the last 200; stock rows sampled from PostgreSQL while selling.</p>
<table><thead><tr><th class="left">strategy</th><th class="right">rows</th><th class="right">sell-out ms</th><th class="right">granted</th><th class="right">left</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<figure>${chart}</figure>`;
}
