import { unionLength, utilisation, type Interval } from './utilisation';

/** Intervals written as [start, end] pairs. */
const spans = (...pairs: [number, number][]): Interval[] => pairs.map(([start, end]) => ({ start, end }));

describe('unionLength', () => {
  it.each([
    { what: 'counts overlapping intervals once', intervals: spans([0, 10], [5, 15]), length: 15 },
    { what: 'adds disjoint intervals and leaves the gaps out', intervals: spans([20, 30], [0, 10]), length: 20 },
    {
      what: 'swallows nested intervals and joins touching ones',
      intervals: spans([0, 100], [10, 20], [100, 110]),
      length: 110,
    },
    { what: 'ignores empty and reversed intervals', intervals: spans([5, 5], [9, 3]), length: 0 },
    { what: 'is 0 without intervals', intervals: [], length: 0 },
  ])('$what', ({ intervals, length }) => {
    expect(unionLength(intervals)).toBe(length);
  });
});

describe('utilisation', () => {
  it('is 1 when holders follow each other without a gap', () => {
    const u = utilisation(spans([10, 20], [0, 10], [20, 30]));
    expect(u).toEqual({ busyShare: 1, meanSectionMs: 10, meanGapMs: 0 });
  });

  it('counts hand-off gaps as idle, and measures them', () => {
    // 3 holders of 8 ms with 2 and 4 ms between them: busy 24 of a 30 ms window.
    const u = utilisation(spans([0, 8], [10, 18], [22, 30]));
    expect(u.busyShare).toBeCloseTo(24 / 30, 10);
    expect(u.meanSectionMs).toBe(8);
    expect(u.meanGapMs).toBe(3);
  });

  it('reads overlapping holders as no gap, and busyShare at most 1', () => {
    const u = utilisation(spans([0, 10], [0, 10], [5, 10]));
    expect(u).toEqual({ busyShare: 1, meanSectionMs: 25 / 3, meanGapMs: 0 });
  });

  it('is zero without grants', () => {
    expect(utilisation([])).toEqual({ busyShare: 0, meanSectionMs: 0, meanGapMs: 0 });
  });
});
