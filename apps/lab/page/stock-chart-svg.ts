/** The stock over time as an SVG: pure (no DOM), so it can be checked without a browser. */

/** One reading of a load's stock, as the lab's server sent it. */
export interface StockReading {
  /** Epoch ms (the lab's clock). */
  readonly at: number;
  /** The stock of record (PostgreSQL). */
  readonly record: number;
  /** Redis's counter; null or absent when there was none to read. */
  readonly redis?: number | null;
}

export type StockSeries = 'record' | 'redis';

export const seriesStyle: Record<StockSeries, { colour: string; dash?: string }> = {
  record: { colour: '#1f5fbf' },
  // Dashed too: the lines differ by more than colour.
  redis: { colour: '#c25700', dash: '6 4' },
};

const PAD = { left: 44, right: 12, top: 10, bottom: 26 };
const n = (value: number) => (Math.round(value * 10) / 10).toString();

/** The readings of one series that have a value, in order. */
export function seriesValues(
  readings: readonly StockReading[],
  series: StockSeries,
): Array<[at: number, value: number]> {
  return readings.flatMap((r) => {
    const value = series === 'record' ? r.record : r.redis;
    return typeof value === 'number' ? [[r.at, value] as [number, number]] : [];
  });
}

/**
 * The chart: one step line per series (stock changes by whole units, so it holds its value until the
 * next reading), each `[data-series]` with its last value in `data-last`; a y axis from 0 to the initial stock.
 */
export function stockChartSvg(
  readings: readonly StockReading[],
  {
    initialStock,
    series,
    width,
    height = 180,
  }: { initialStock: number; series: readonly StockSeries[]; width: number; height?: number },
): string {
  const first = readings[0]?.at ?? 0;
  const spanMs = Math.max(1000, (readings.at(-1)?.at ?? first) - first);
  const top = Math.max(1, initialStock);
  const x = (at: number) => PAD.left + ((at - first) / spanMs) * (width - PAD.left - PAD.right);
  const y = (value: number) => PAD.top + (1 - value / top) * (height - PAD.top - PAD.bottom);
  const bottom = height - PAD.bottom;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" data-testid="stock-chart" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11" role="img" aria-label="Stock over time">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<line x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${bottom}" stroke="#999999"/>`,
    `<line x1="${PAD.left}" x2="${width - PAD.right}" y1="${bottom}" y2="${bottom}" stroke="#999999"/>`,
    `<text x="${PAD.left - 6}" y="${n(y(top) + 4)}" text-anchor="end" fill="#555555">${initialStock || ''}</text>`,
    `<text x="${PAD.left - 6}" y="${n(y(0) + 4)}" text-anchor="end" fill="#555555">0</text>`,
    `<text x="${PAD.left}" y="${height - 8}" fill="#555555">0 s</text>`,
    `<text x="${width - PAD.right}" y="${height - 8}" text-anchor="end" fill="#555555">${(spanMs / 1000).toFixed(1)} s</text>`,
  ];
  for (const name of series) {
    const values = seriesValues(readings, name);
    if (!values.length) continue;
    const points: string[] = [];
    values.forEach(([at, value], i) => {
      if (i > 0) points.push(`${n(x(at))},${n(y(values[i - 1][1]))}`);
      points.push(`${n(x(at))},${n(y(value))}`);
    });
    const { colour, dash } = seriesStyle[name];
    out.push(
      `<polyline data-series="${name}" data-last="${values.at(-1)![1]}" points="${points.join(' ')}" fill="none" stroke="${colour}" stroke-width="2.5"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`,
    );
  }
  out.push('</svg>');
  return out.join('\n');
}
