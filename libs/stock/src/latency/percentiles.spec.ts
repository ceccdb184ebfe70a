import { percentile, summarizeLatencies } from './percentiles';

describe('percentiles', () => {
  it('takes the nearest rank: of 1…100, p50 is 50 and p99 is 99', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
  });

  it('with few values the p99 is the largest, and one slow value shows', () => {
    expect(summarizeLatencies([30, 10, 20, 900])).toEqual({ count: 4, p50: 20, p99: 900, max: 900 });
  });

  it('sorts its input itself, leaves it unchanged, and answers null for none', () => {
    const values = [5, 1, 3];
    expect(summarizeLatencies(values)).toMatchObject({ p50: 3 });
    expect(values).toEqual([5, 1, 3]);
    expect(summarizeLatencies([])).toBeNull();
  });

  it('refuses a percentile outside (0, 100]', () => {
    expect(() => percentile([1], 0)).toThrow();
    expect(() => percentile([1], 101)).toThrow();
    expect(() => percentile([], 50)).toThrow('no values');
  });
});
