import { sharedRunCovers } from './local-handoff';

describe('sharedRunCovers', () => {
  it('covers a taker while at least 99% of its lease is left in the run', () => {
    expect(sharedRunCovers(10_000, 10_000, 0)).toBe(true);
    expect(sharedRunCovers(10_000, 10_000, 100)).toBe(true);
    expect(sharedRunCovers(10_000, 10_000, 101)).toBe(false);
  });

  it('measures against the lease the taker asked for', () => {
    expect(sharedRunCovers(10_000, 5_000, 5_000)).toBe(true);
    expect(sharedRunCovers(10_000, 5_000, 5_051)).toBe(false);
  });
});
