import { titles } from '../report/evidence';
import { lineChart } from '../../tools/report/line-chart';
import { htmlTable } from '../../tools/report/table';
import { medianRun, type SellOutResult } from './sell-out-round';

const COLORS = ['#1565c0', '#2e7d32', '#c62828', '#6a1b9a', '#ef6c00', '#00838f', '#5d4037', '#9e9d24'];

/** The HTML section: sell-out times, and each segment's stock over the median segmented run. */
export function sellOutSection(result: SellOutResult | undefined): string {
  const run = result && medianRun(result, 'segmented');
  if (!result || !run) return '';
  const table = htmlTable({
    header: ['strategy', 'rows', 'sell-out ms', 'granted', 'left'],
    align: ['left', 'right', 'right', 'right', 'right'],
    rows: result.runs.map((r) => [r.strategy, ...[r.segments, r.sellOutMs, r.granted, r.stockLeft].map(String)]),
  });
  const chart = lineChart(
    `segmented: each segment's stock over the median run (${run.sellOutMs} ms)`,
    'units',
    Array.from({ length: run.segments }, (_, i) => ({
      name: `segment ${i}`,
      color: COLORS[i % COLORS.length],
      points: run.samples.map((s): [number, number] => [s.atMs / 1000, s.stocks[i] ?? 0]),
    })),
    [],
  );
  return `<h2>${titles.sellOut}</h2>
<p class="method">${result.buyers} buyers for ${result.stock} units, ${result.inFlight} in flight, workMs ${result.workMs}, from the first request to the last 200; stock rows sampled from PostgreSQL while selling.</p>
${table}
<figure>${chart}</figure>`;
}
