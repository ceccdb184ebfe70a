import { splitStock } from './split-stock';

describe('splitStock', () => {
  it('splits evenly and gives the remainder to the first rows', () => {
    expect(splitStock(10, 3)).toEqual([4, 3, 3]);
    expect(splitStock(8, 8)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('keeps the total', () => {
    for (const [stock, n] of [
      [0, 4],
      [1, 64],
      [9_999_999, 7],
    ]) {
      expect(splitStock(stock, n).reduce((a, b) => a + b, 0)).toBe(stock);
    }
  });
});
