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
  it('sorts, then reports p50, p99 and max', () => {
    expect(summariseLatency([4, 2, 8, 6])).toEqual({ p50: 4, p99: 8, max: 8 });
  });

  it('is all zeros for no answers', () => {
    expect(summariseLatency([])).toEqual({ p50: 0, p99: 0, max: 0 });
  });
});
