import { seriesValues, stockChartSvg, type StockReading } from './stock-chart-svg';

const readings: StockReading[] = [
  { at: 1_000, record: 10, redis: null },
  { at: 1_500, record: 10, redis: 7 },
  { at: 2_000, record: 8, redis: 7 },
  { at: 3_000, record: 7, redis: 7 },
];

const line = (svg: string, series: string) => new RegExp(`<polyline data-series="${series}"[^>]*>`).exec(svg)?.[0];

describe('stockChartSvg', () => {
  it("skips readings without Redis's figure, and keeps the order of the rest", () => {
    expect(seriesValues(readings, 'redis')).toEqual([
      [1_500, 7],
      [2_000, 7],
      [3_000, 7],
    ]);
    expect(seriesValues(readings, 'record').map(([, v]) => v)).toEqual([10, 10, 8, 7]);
  });

  it('draws each series as a step line ending at its last reading, from 0 up to the initial stock', () => {
    const svg = stockChartSvg(readings, { initialStock: 10, series: ['record', 'redis'], width: 400, height: 180 });
    const record = line(svg, 'record')!;
    expect(record).toContain('data-last="7"');
    // Four readings, each after the first held level until the next: 1 + 2 × 3 points.
    expect(/points="([^"]*)"/.exec(record)![1].split(' ')).toHaveLength(7);
    // The first reading is at the top (the initial stock), the last at the right edge.
    expect(/points="([^"]*)"/.exec(record)![1].split(' ')[0]).toBe('44,10');
    expect(/points="([^"]*)"/.exec(record)![1].split(' ').at(-1)).toMatch(/^388,/);
    expect(line(svg, 'redis')).toContain('data-last="7"');
  });

  it('draws no Redis line for a strategy without a counter, nor one with no figure yet', () => {
    expect(
      line(stockChartSvg(readings, { initialStock: 10, series: ['record'], width: 400 }), 'redis'),
    ).toBeUndefined();
    const early = stockChartSvg(readings.slice(0, 1), { initialStock: 10, series: ['record', 'redis'], width: 400 });
    expect(line(early, 'redis')).toBeUndefined();
    expect(line(early, 'record')).toContain('data-last="10"');
  });
});
