import {
  assignSubRows,
  axisStep,
  findOverlaps,
  layoutTimeline,
  maxConcurrent,
  type TimelineBar,
} from './timeline-model';

const bar = (lane: string, start: number, end: number, row = 'segment 0'): TimelineBar => ({ lane, start, end, row });

describe('findOverlaps', () => {
  it('finds the stretch where two sections on one row overlap', () => {
    expect(findOverlaps([bar('api-1', 0, 900), bar('api-2', 350, 1500)])).toEqual([
      { row: 'segment 0', start: 350, end: 900, count: 2 },
    ]);
  });

  it('does not count a hand-off (one leaves the instant the next enters) as an overlap', () => {
    expect(findOverlaps([bar('api-1', 0, 100), bar('api-2', 100, 200), bar('api-3', 200, 300)])).toEqual([]);
  });

  it('ignores sections on different rows (segments), however they overlap in time', () => {
    expect(findOverlaps([bar('api-1', 0, 100, 'segment 0'), bar('api-2', 0, 100, 'segment 1')])).toEqual([]);
  });

  it('reports the peak count of a stretch where three sections overlap', () => {
    const three = [bar('a', 0, 100), bar('b', 10, 90), bar('c', 20, 50)];
    expect(findOverlaps([...three, bar('a', 200, 300), bar('b', 250, 260)])).toEqual([
      { row: 'segment 0', start: 10, end: 90, count: 3 },
      { row: 'segment 0', start: 250, end: 260, count: 2 },
    ]);
    expect(maxConcurrent(three)).toBe(3);
  });

  it('counts one holder when nothing overlaps, none when there are no sections', () => {
    expect(maxConcurrent([bar('a', 0, 10), bar('b', 20, 30)])).toBe(1);
    expect(maxConcurrent([])).toBe(0);
  });
});

describe('layoutTimeline', () => {
  const input = {
    title: 't',
    lanes: ['api-1', 'api-2', 'api-3'],
    bars: [bar('api-1', 1000, 1900), bar('api-2', 1350, 2500), bar('api-3', 2600, 2700)],
    ticks: [
      { lane: 'redis', at: 1300, type: 'expired' },
      { lane: 'api-1', at: 1000, type: 'acquire' },
    ],
  };
  const options = { width: 1000, laneHeight: 40, labelWidth: 100, top: 30, bottom: 40, right: 0 };

  it('maps time left to right over the plot, earlier further left', () => {
    const layout = layoutTimeline(input, options);
    const [a, b, c] = layout.bars;
    expect(a.x).toBeGreaterThanOrEqual(options.labelWidth);
    expect(a.x).toBeLessThan(b.x);
    expect(b.x + b.width).toBeLessThan(c.x);
    expect(c.x + c.width).toBeLessThanOrEqual(options.width);
    // 900 ms of bar is 9 times as wide as 100 ms.
    expect(a.width / c.width).toBeCloseTo(9, 5);
  });

  it('marks exactly the bars that overlap, and the overlap band between their ends', () => {
    const layout = layoutTimeline(input, options);
    expect(layout.bars.map((b) => b.overlapping)).toEqual([true, true, false]);
    expect(layout.overlaps).toHaveLength(1);
    const band = layout.overlaps[0];
    expect(band.x).toBeCloseTo(layout.bars[1].x, 5);
    expect(band.x + band.width).toBeCloseTo(layout.bars[0].x + layout.bars[0].width, 5);
  });

  it('gives lanes not listed (the redis lane) their own row, below the listed ones', () => {
    const layout = layoutTimeline(input, options);
    expect(layout.lanes.map((l) => l.name)).toEqual(['api-1', 'api-2', 'api-3', 'redis']);
    const redisTick = layout.ticks.find((t) => t.tick.type === 'expired')!;
    expect(redisTick.y).toBeGreaterThan(layout.lanes[2].y);
    expect(layout.height).toBe(options.top + 4 * options.laneHeight + options.bottom);
  });

  it('stacks overlapping sections of one lane in sub-rows, growing the lane', () => {
    const twoAtOnce = [bar('api-1', 0, 100), bar('api-1', 50, 150)];
    expect(assignSubRows([...twoAtOnce, bar('api-1', 120, 200), bar('api-2', 0, 100)])).toEqual([0, 1, 0, 0]);
    const layout = layoutTimeline({ title: 't', lanes: ['api-1', 'api-2'], bars: twoAtOnce, ticks: [] }, options);
    expect(layout.lanes[0].height).toBeGreaterThan(options.laneHeight);
    expect(layout.bars[1].y).toBeGreaterThan(layout.bars[0].y);
  });

  it('labels the axis in round steps from the first event', () => {
    expect(axisStep(1700)).toBe(500);
    expect(axisStep(90)).toBe(20);
    const layout = layoutTimeline(input, options);
    expect(layout.axis[0].ms).toBe(0);
    expect(layout.axis.map((a) => a.ms)).toEqual([0, 500, 1000, 1500]);
  });
});
