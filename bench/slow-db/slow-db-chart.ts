import { titles } from '../report/evidence';
import { lineChart } from '../report/line-chart';
import { escapeXml } from '../report/svg-charts';
import type { SlowDbResult } from './slow-db-types';

const COLORS: Record<string, string> = { 'db-atomic': '#1565c0', 'redis-lua': '#ef6c00', 'redis-stream': '#2e7d32' };

/** The HTML section: each design's buyers' wait by arrival, the stall marked, and the figures beside. */
export function slowDbSection(result: SlowDbResult | undefined): string {
  if (!result) return '';
  const cell = (text: string | number) => `<td class="right">${escapeXml(String(text))}</td>`;
  const rows = result.runs
    .map(
      (r) =>
        `<tr><td class="left">${escapeXml(r.strategy)}</td>${cell(r.stalled.p50.toFixed(0))}${cell(r.stalled.p99.toFixed(0))}` +
        `${cell(r.caughtUpMs.toFixed(0))}${cell(
          Object.entries(r.answers)
            .map(([k, n]) => `${k}: ${n}`)
            .join(', '),
        )}` +
        `<td class="${r.correct ? 'left' : 'left bad'}">${r.correct ? 'yes' : 'NO'}</td></tr>`,
    )
    .join('\n');
  const from = Math.min(...result.runs.map((r) => r.stallFromMs)) / 1000;
  const to = Math.max(...result.runs.map((r) => r.stallToMs)) / 1000;
  const chart = lineChart(
    titles.slowDb,
    'ms waited, by arrival (s)',
    result.runs.map((r) => ({
      name: r.strategy,
      color: COLORS[r.strategy] ?? '#6a1b9a',
      points: r.sentMs.map((at, i): [number, number] => [at / 1000, r.waitMs[i]]),
    })),
    [
      { x: from, label: 'stock row held' },
      { x: to, label: 'released' },
    ],
  );
  return `<h2>A slow database</h2>
<p class="method">${result.buyers} buyers at ${result.perSec}/s whatever the answers, one design after the other on fresh coupons; meanwhile the bench holds the coupon's stock row (SELECT … FOR UPDATE in a transaction of its own) for ${result.stallMs} ms. Wait: from sending the grab to its answer (200, or 202 accepted for redis-stream); p50/p99 of the buyers who arrived while the row was held. Backlog durable: from the release to the grant row of the last buyer who arrived before it.</p>
<table><thead><tr><th class="left">strategy</th><th class="right">p50 ms</th><th class="right">p99 ms</th><th class="right">backlog durable ms after release</th><th class="right">answers</th><th class="left">grants = accepted</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<figure>${chart}</figure>`;
}
