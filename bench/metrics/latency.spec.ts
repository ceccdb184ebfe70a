import { percentile, summariseLatency } from './latency';

describe('percentile', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);

  it('takes the nearest rank', () => {
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 99.9)).toBe(100);
    expect(percentile(hundred, 0)).toBe(1);
  });

  it('is 0 for no values', () => {
    expect(percentile([], 50)).toBe(0);
  });
});

describe('summariseLatency', () => {
  it('sorts, then reports percentiles, max, mean and spread', () => {
    const s = summariseLatency([4, 2, 8, 6]);
    expect(s).toMatchObject({ p50: 4, p99: 8, p999: 8, max: 8, mean: 5 });
    expect(s.stddev).toBeCloseTo(Math.sqrt(5), 10);
  });
});
