/** The stock over time as an SVG: pure (no DOM), so it can be checked without a browser. */
import { n, timeFrame } from './chart-frame';

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
  const top = Math.max(1, initialStock);
  const { x, y, axes } = timeFrame(
    readings.map((r) => r.at),
    { top, topLabel: initialStock ? String(initialStock) : '', width, height },
  );
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" data-testid="stock-chart" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11" role="img" aria-label="Stock over time">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    ...axes,
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
