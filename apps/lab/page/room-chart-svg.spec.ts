import { roomChartSvg, stackedBands, type RoomReading } from './room-chart-svg';

const counts = (waiting: number, admitted: number, granted: number, soldOut: number) => ({
  waiting,
  admitted,
  granted,
  'sold-out': soldOut,
});

// Four buyers for two units: all in line, two admitted, both granted, the other two told sold out.
const readings: RoomReading[] = [
  { at: 1_000, counts: counts(4, 0, 0, 0) },
  { at: 1_500, counts: counts(2, 2, 0, 0) },
  { at: 2_000, counts: counts(2, 0, 2, 0) },
  { at: 3_000, counts: counts(0, 0, 2, 2) },
];

const band = (svg: string, state: string) => new RegExp(`<polygon data-state="${state}"[^>]*>`).exec(svg)?.[0];
const points = (tag: string) => /points="([^"]*)"/.exec(tag)![1].split(' ');

describe('roomChartSvg', () => {
  it('stacks the states from the axis up: granted, sold out, admitted, waiting', () => {
    const bands = stackedBands(readings);
    expect(bands.granted.map((b) => [b.low, b.high])).toEqual([
      [0, 0],
      [0, 0],
      [0, 2],
      [0, 2],
    ]);
    expect(bands['sold-out'].at(-1)).toEqual({ at: 3_000, low: 2, high: 4 });
    expect(bands.admitted[1]).toEqual({ at: 1_500, low: 0, high: 2 });
    expect(bands.waiting[1]).toEqual({ at: 1_500, low: 2, high: 4 });
    // Every reading's top is the buyers counted.
    expect(bands.waiting.map((b) => b.high)).toEqual([4, 4, 4, 4]);
  });

  it('carries the last counts, and draws each band as steps between the readings', () => {
    const svg = roomChartSvg(readings, { buyers: 4, width: 400, height: 160 });
    const root = /<svg [^>]*>/.exec(svg)![0];
    expect(root).toContain('data-testid="room-chart"');
    expect(root).toContain('data-waiting="0" data-admitted="0" data-granted="2" data-sold-out="2"');
    // The top edge, then the bottom edge back: each edge 1 + 2 × 3 points.
    const waiting = points(band(svg, 'waiting')!);
    expect(waiting).toHaveLength(14);
    // Starts at the top left (all four waiting), ends on the right edge.
    expect(waiting[0]).toBe('44,10');
    expect(waiting[6]).toMatch(/^388,/);
  });

  it('draws no band for a state no buyer was ever in, and no counts before the first reading', () => {
    const svg = roomChartSvg(readings.slice(0, 1), { buyers: 4, width: 400 });
    expect(band(svg, 'waiting')).toBeDefined();
    for (const state of ['admitted', 'granted', 'sold-out']) expect(band(svg, state)).toBeUndefined();
    expect(roomChartSvg([], { buyers: 4, width: 400 })).not.toContain('data-granted');
  });
});
