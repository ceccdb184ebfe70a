/** A load's buyers in the waiting room over time, as an SVG: pure (no DOM), so it can be checked without a browser. */
import { BUYER_STATES, type BuyerState, type RoomCounts } from '@app/contract';
import { n, timeFrame } from './chart-frame';

/** One reading of the buyers' states, as the lab's server sent it with a progress. */
export interface RoomReading {
  /** Epoch ms (the lab's clock). */
  readonly at: number;
  readonly counts: RoomCounts;
}

/** Bottom to top: the buyers done below, those still in play above, so the settled part grows from the axis. */
export const STACK: readonly BuyerState[] = ['granted', 'sold-out', 'admitted', 'waiting'];

export const stateStyle: Record<BuyerState, { colour: string; label: string }> = {
  waiting: { colour: '#8fb3e6', label: 'waiting in line' },
  admitted: { colour: '#f0a400', label: 'admitted, grabbing' },
  granted: { colour: '#1e6b2e', label: 'granted' },
  'sold-out': { colour: '#9a9a9a', label: 'sold out (or refused)' },
};

/** Each state's band at each reading: from the states below it (`low`) to `low` plus its count (`high`). */
export function stackedBands(
  readings: readonly RoomReading[],
): Record<BuyerState, Array<{ at: number; low: number; high: number }>> {
  const bands = Object.fromEntries(
    BUYER_STATES.map((s) => [s, [] as Array<{ at: number; low: number; high: number }>]),
  );
  for (const { at, counts } of readings) {
    let low = 0;
    for (const state of STACK) {
      bands[state].push({ at, low, high: low + counts[state] });
      low += counts[state];
    }
  }
  return bands as Record<BuyerState, Array<{ at: number; low: number; high: number }>>;
}

/**
 * The chart: one stacked band per state (counts hold until the next reading, so the edges are steps),
 * each `[data-state]`; the svg carries the last reading's counts as `data-waiting`, `data-admitted`,
 * `data-granted`, `data-sold-out`. The y axis runs from 0 to the buyers.
 */
export function roomChartSvg(
  readings: readonly RoomReading[],
  { buyers, width, height = 160 }: { buyers: number; width: number; height?: number },
): string {
  const top = Math.max(1, buyers, ...readings.map((r) => BUYER_STATES.reduce((sum, s) => sum + r.counts[s], 0)));
  const { x, y, axes } = timeFrame(
    readings.map((r) => r.at),
    { top, topLabel: String(top), width, height },
  );
  const last = readings.at(-1)?.counts;
  const finals = last ? BUYER_STATES.map((s) => ` data-${s}="${last[s]}"`).join('') : '';
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" data-testid="room-chart"${finals} width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11" role="img" aria-label="Buyers in the waiting room over time${last ? `: ${BUYER_STATES.map((s) => `${last[s]} ${stateStyle[s].label}`).join(', ')}` : ''}">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
  ];
  const bands = stackedBands(readings);
  for (const state of STACK) {
    const band = bands[state];
    if (!band.some((b) => b.high > b.low)) continue;
    const edge = (pick: 'low' | 'high') =>
      band.flatMap((b, i) => {
        const here = `${n(x(b.at))},${n(y(b[pick]))}`;
        return i > 0 ? [`${n(x(b.at))},${n(y(band[i - 1][pick]))}`, here] : [here];
      });
    const points = [...edge('high'), ...edge('low').reverse()];
    out.push(
      `<polygon data-state="${state}" points="${points.join(' ')}" fill="${stateStyle[state].colour}" stroke="#ffffff" stroke-width="0.5"><title>${stateStyle[state].label}</title></polygon>`,
    );
  }
  out.push(...axes, '</svg>');
  return out.join('\n');
}
