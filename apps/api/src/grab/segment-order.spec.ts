import { segmentOrder } from './segment-order';

const rows = (...stocks: number[]) => stocks.map((stock, index) => ({ index, stock }));

describe('segmentOrder', () => {
  it('draws the first row in proportion to its stock', () => {
    // Stock 1, 3, 6 of 10: the draw's point 0…1 falls in row 0, 3…4 in row 1, 4…10 in row 2.
    expect(segmentOrder(rows(1, 3, 6), () => 0.05)[0]).toBe(0);
    expect(segmentOrder(rows(1, 3, 6), () => 0.35)[0]).toBe(1);
    expect(segmentOrder(rows(1, 3, 6), () => 0.41)[0]).toBe(2);
    expect(segmentOrder(rows(1, 3, 6), () => 0.999)[0]).toBe(2);
  });

  it('over many draws, each row is first about as often as its share of the stock', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const firsts = [0, 0, 0, 0];
    for (let i = 0; i < 20_000; i++) firsts[segmentOrder(rows(10, 0, 30, 60), random)[0]]++;
    expect(firsts.map((n) => Math.round(n / 2000))).toEqual([1, 0, 3, 6]);
  });

  it('puts every other row after the first, most stock first, each once', () => {
    expect(segmentOrder(rows(5, 9, 2, 9), () => 0)).toEqual([0, 1, 3, 2]);
  });

  it('draws evenly when no row reports stock, and answers nothing for no rows', () => {
    expect(segmentOrder(rows(0, 0, 0, 0), () => 0.6)[0]).toBe(2);
    expect(segmentOrder([], () => 0.5)).toEqual([]);
  });
});
