import { titles } from '../report/evidence';
import { lineChart } from '../../tools/report/line-chart';
import { fixed } from '../../tools/report/format';
import { htmlTable } from '../../tools/report/table';
import type { SlowDbResult } from './slow-db-round';

const COLORS: Record<string, string> = { 'db-atomic': '#1565c0', 'redis-lua': '#ef6c00', 'redis-stream': '#2e7d32' };

/** The HTML section: each design's buyers' wait by arrival, the stall marked, and the figures beside. */
export function slowDbSection(result: SlowDbResult | undefined): string {
  if (!result) return '';
  const table = htmlTable({
    header: ['strategy', 'p50 ms', 'p99 ms', 'backlog durable ms after release', 'all served, all granted'],
    align: ['left', 'right', 'right', 'right', 'left'],
    rows: result.runs.map((r) => [
      r.strategy,
      ...[r.stalled?.p50, r.stalled?.p99, r.caughtUpMs].map((x) => fixed(x ?? NaN)),
      r.correct ? 'yes' : 'NO',
    ]),
    alarming: (row, column) => column === 4 && !result.runs[row].correct,
  });
  const chart = lineChart(
    titles.slowDb,
    'ms waited, by arrival (s)',
    result.runs.map((r) => ({
      name: r.strategy,
      color: COLORS[r.strategy] ?? '#6a1b9a',
      points: r.sentMs.map((at, i): [number, number] => [at / 1000, r.waitMs[i]]),
    })),
    [
      { x: Math.min(...result.runs.map((r) => r.stallFromMs)) / 1000, label: 'stock row held' },
      { x: Math.max(...result.runs.map((r) => r.stallToMs)) / 1000, label: 'released' },
    ],
  );
  return `<h2>A slow database</h2>
<p class="method">${result.buyers} buyers at ${result.perSec}/s whatever the answers, one design after the other on fresh coupons; meanwhile the bench holds the coupon's stock row (SELECT … FOR UPDATE in a transaction of its own) for ${result.stallMs} ms. Wait: from sending the grab to its answer (200, or 202 accepted for redis-stream); p50/p99 of the buyers who arrived while the row was held. Backlog durable: from the release to the grant row of the last buyer who arrived before it. All served, all granted: every buyer answered 200 (or 202), each a grant row, none beyond the stock.</p>
${table}
<figure>${chart}</figure>`;
}
