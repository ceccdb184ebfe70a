import { jainIndex } from './jain';

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
