import { percentile, splitLatency, summariseLatency } from './latency';

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

  it('is all zeros for no answers', () => {
    expect(summariseLatency([])).toEqual({ p50: 0, p99: 0, p999: 0, max: 0, mean: 0, stddev: 0 });
  });
});

describe('splitLatency', () => {
  it('summarises every answer, and the granted ones apart from the turned-away ones', () => {
    const split = splitLatency([40, 10, 30, 20], [2, 4]);
    expect(split.granted).toMatchObject({ p50: 20, p99: 40, max: 40, mean: 25 });
    expect(split.turnedAway).toMatchObject({ p50: 2, p99: 4, max: 4, mean: 3 });
    expect(split.all).toMatchObject({ p50: 10, p99: 40, max: 40, mean: 106 / 6 });
    expect(split.all).toEqual(summariseLatency([2, 4, 10, 20, 30, 40]));
  });

  it('keeps a side with no answers at zero', () => {
    const split = splitLatency([5, 7], []);
    expect(split.turnedAway).toEqual(summariseLatency([]));
    expect(split.all).toEqual(split.granted);
    expect(split.granted.mean).toBe(6);
  });
});
