import { mostInWindow, outOfOrderShare } from './crowd-checks';

describe('crowd checks', () => {
  it('outOfOrderShare: counts only pairs far enough apart whose tickets are swapped', () => {
    const buyers = [
      { scheduledAt: 0, ticket: 2 },
      { scheduledAt: 10, ticket: 1 }, // 10 ms after the first: too close to count
      { scheduledAt: 100, ticket: 4 },
      { scheduledAt: 200, ticket: 3 }, // swapped with the third, 100 ms apart
      { scheduledAt: 300 }, // no ticket (its join was refused): left out
    ];
    // pairs ≥ 50 ms apart: (0,100) (0,200) (10,100) (10,200) (100,200) = 5, of which 1 swapped
    expect(outOfOrderShare(buyers, 50)).toBeCloseTo(1 / 5);
    expect(outOfOrderShare([], 50)).toBe(0);
  });

  it('mostInWindow: the most times inside any window [t, t + windowMs)', () => {
    expect(mostInWindow([0, 5, 10, 1000, 1010], 1000)).toBe(3);
    expect(mostInWindow([0, 5, 10, 1000, 1004], 1000)).toBe(4); // 5, 10, 1000, 1004
    expect(mostInWindow([0, 999, 1000, 1998], 1000)).toBe(3); // 999, 1000, 1998
    expect(mostInWindow([], 1000)).toBe(0);
  });
});
