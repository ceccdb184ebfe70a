import { heldShare, unionLength, utilisation, type Interval } from './utilisation';

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
    const u = utilisation(spans([0, 10], [10, 20], [20, 30]));
    expect(u).toEqual({ busyShare: 1, meanHolders: 1, windowMs: 30 });
  });

  it('counts hand-off gaps as idle', () => {
    // 3 holders of 8 ms with 2 ms between them: busy 24 of a 28 ms window.
    const u = utilisation(spans([0, 8], [10, 18], [20, 28]));
    expect(u.busyShare).toBeCloseTo(24 / 28, 10);
    expect(u.meanHolders).toBeCloseTo(24 / 28, 10);
  });

  it('reports several holders at once as meanHolders above 1 but busyShare at most 1', () => {
    const u = utilisation(spans([0, 10], [0, 10], [5, 10]));
    expect(u.busyShare).toBe(1);
    expect(u.meanHolders).toBeCloseTo(2.5, 10);
  });

  it('is zero without grants', () => {
    expect(utilisation([])).toEqual({ busyShare: 0, meanHolders: 0, windowMs: 0 });
  });
});

describe('heldShare', () => {
  const grants = spans([100, 110], [120, 200]);

  it("clips lock holds to the grants' window and counts overlaps once", () => {
    expect(heldShare(spans([90, 150], [140, 160]), grants)).toBeCloseTo(60 / 100, 10);
  });

  it('is 0 without grants', () => {
    expect(heldShare(spans([0, 1]), [])).toBe(0);
  });
});
