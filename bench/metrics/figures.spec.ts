import { isoToMs, jainIndex, utilisation } from './figures';

describe('jainIndex', () => {
  it('is 1 when every share is equal', () => {
    expect(jainIndex([7, 7, 7, 7])).toBe(1);
  });

  it('is 1/n when one party got everything', () => {
    expect(jainIndex([12, 0, 0, 0])).toBeCloseTo(0.25, 10);
  });

  it('matches the formula on uneven shares', () => {
    // (1+2+3)² / (3 · (1+4+9)) = 36 / 42
    expect(jainIndex([1, 2, 3])).toBeCloseTo(36 / 42, 10);
  });

  it('treats no shares as fair', () => {
    expect(jainIndex([])).toBe(1);
    expect(jainIndex([0, 0])).toBe(1);
  });
});

describe('isoToMs', () => {
  it('keeps microseconds', () => {
    expect(isoToMs('2026-11-22T04:00:00.123456Z') - Date.parse('2026-11-22T04:00:00Z')).toBeCloseTo(123.456, 3);
  });

  it('reads millisecond and whole-second stamps and offsets', () => {
    expect(isoToMs('2026-11-22T04:00:00.5Z')).toBe(Date.parse('2026-11-22T04:00:00.500Z'));
    expect(isoToMs('2026-11-22T04:00:01Z')).toBe(Date.parse('2026-11-22T04:00:01Z'));
    expect(isoToMs('2026-11-22T05:00:00.25+01:00')).toBe(Date.parse('2026-11-22T04:00:00.250Z'));
  });
});

/** Sections written as [start, end] pairs. */
const spans = (...pairs: [number, number][]) => pairs.map(([start, end]) => ({ start, end }));

describe('utilisation', () => {
  it('has no hand-off when holders follow each other without a gap', () => {
    expect(utilisation(spans([10, 20], [0, 10], [20, 30]))).toEqual({ meanSectionMs: 10, meanGapMs: 0 });
  });

  it('measures the hand-off gaps between one exit and the next entry', () => {
    // 3 holders of 8 ms with 2 and 4 ms between them.
    expect(utilisation(spans([0, 8], [10, 18], [22, 30]))).toEqual({ meanSectionMs: 8, meanGapMs: 3 });
  });

  it('reads overlapping holders as no gap', () => {
    expect(utilisation(spans([0, 10], [0, 10], [5, 10]))).toEqual({ meanSectionMs: 25 / 3, meanGapMs: 0 });
  });

  it('is zero without grants', () => {
    expect(utilisation([])).toEqual({ meanSectionMs: 0, meanGapMs: 0 });
  });
});
