import { heldShare, unionLength, utilisation } from './utilisation';

describe('unionLength', () => {
  it('counts overlapping intervals once', () => {
    expect(
      unionLength([
        { start: 0, end: 10 },
        { start: 5, end: 15 },
      ]),
    ).toBe(15);
  });

  it('adds disjoint intervals and leaves the gaps out', () => {
    expect(
      unionLength([
        { start: 20, end: 30 },
        { start: 0, end: 10 },
      ]),
    ).toBe(20);
  });

  it('swallows nested intervals and joins touching ones', () => {
    expect(
      unionLength([
        { start: 0, end: 100 },
        { start: 10, end: 20 },
        { start: 100, end: 110 },
      ]),
    ).toBe(110);
  });

  it('ignores empty and reversed intervals', () => {
    expect(
      unionLength([
        { start: 5, end: 5 },
        { start: 9, end: 3 },
      ]),
    ).toBe(0);
    expect(unionLength([])).toBe(0);
  });
});

describe('utilisation', () => {
  it('is 1 when holders follow each other without a gap', () => {
    const u = utilisation([
      { start: 0, end: 10 },
      { start: 10, end: 20 },
      { start: 20, end: 30 },
    ]);
    expect(u).toEqual({ busyShare: 1, meanHolders: 1, windowMs: 30 });
  });

  it('counts hand-off gaps as idle', () => {
    // 3 holders of 8 ms with 2 ms between them: busy 24 of a 28 ms window.
    const u = utilisation([
      { start: 0, end: 8 },
      { start: 10, end: 18 },
      { start: 20, end: 28 },
    ]);
    expect(u.busyShare).toBeCloseTo(24 / 28, 10);
    expect(u.meanHolders).toBeCloseTo(24 / 28, 10);
  });

  it('reports several holders at once as meanHolders above 1 but busyShare at most 1', () => {
    const u = utilisation([
      { start: 0, end: 10 },
      { start: 0, end: 10 },
      { start: 5, end: 10 },
    ]);
    expect(u.busyShare).toBe(1);
    expect(u.meanHolders).toBeCloseTo(2.5, 10);
  });

  it('is zero without grants', () => {
    expect(utilisation([])).toEqual({ busyShare: 0, meanHolders: 0, windowMs: 0 });
  });
});

describe('heldShare', () => {
  const grants = [
    { start: 100, end: 110 },
    { start: 120, end: 200 },
  ];

  it("clips lock holds to the grants' window and counts overlaps once", () => {
    expect(
      heldShare(
        [
          { start: 90, end: 150 },
          { start: 140, end: 160 },
        ],
        grants,
      ),
    ).toBeCloseTo(60 / 100, 10);
  });

  it('is 0 without grants', () => {
    expect(heldShare([{ start: 0, end: 1 }], [])).toBe(0);
  });
});
