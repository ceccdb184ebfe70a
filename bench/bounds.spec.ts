import { sampleResult } from '../test/fixtures/bench-report';
import type { Ceilings } from './types';
import { boundOf, withBounds } from './scenarios';

const ceilings: Ceilings = {
  httpPerSec: 4000,
  pgHotRowPerSec: 1600,
  redisPerSec: 900,
};

describe('boundOf', () => {
  it('picks the lowest of the ceilings named, and the share of it', () => {
    expect(boundOf(800, ceilings, ['httpPerSec', 'pgHotRowPerSec', 'redisPerSec'])).toEqual({
      ceiling: 'redisPerSec',
      perSec: 900,
      share: 800 / 900,
    });
  });

  it('ignores a lower ceiling the grabs do not pass through', () => {
    expect(boundOf(800, ceilings, ['httpPerSec', 'pgHotRowPerSec'])).toEqual({
      ceiling: 'pgHotRowPerSec',
      perSec: 1600,
      share: 0.5,
    });
    expect(boundOf(1000, ceilings, ['httpPerSec'])).toEqual({ ceiling: 'httpPerSec', perSec: 4000, share: 0.25 });
  });

  it('whatever the order the ceilings are named in', () => {
    expect(boundOf(450, ceilings, ['redisPerSec', 'httpPerSec']).ceiling).toBe('redisPerSec');
    expect(boundOf(450, ceilings, ['httpPerSec', 'redisPerSec']).ceiling).toBe('redisPerSec');
  });

  it('has a share of 0 against a ceiling that measured nothing', () => {
    expect(boundOf(500, { ...ceilings, redisPerSec: 0 }, ['httpPerSec', 'redisPerSec'])).toEqual({
      ceiling: 'redisPerSec',
      perSec: 0,
      share: 0,
    });
  });
});

describe('withBounds', () => {
  it('holds each strategy to the lowest ceiling its scenario names', () => {
    const atomic = withBounds(sampleResult({ strategy: 'db-atomic', grabsPerSec: 1200 }), ceilings);
    // db-atomic passes through http and the pg hot row, not redis (the lowest here).
    expect(atomic.bound).toEqual({ ceiling: 'pgHotRowPerSec', perSec: 1600, share: 0.75 });
  });

  it('takes redis for segmented and for a strategy the map does not name (every ceiling)', () => {
    expect(withBounds(sampleResult({ strategy: 'segmented', grabsPerSec: 450 }), ceilings).bound).toEqual({
      ceiling: 'redisPerSec',
      perSec: 900,
      share: 0.5,
    });
    expect(withBounds(sampleResult({ strategy: 'added-later', grabsPerSec: 90 }), ceilings).bound.ceiling).toBe(
      'redisPerSec',
    );
  });

  it('leaves the rest of the result alone', () => {
    const input = sampleResult({ strategy: 'none', grabsPerSec: 2000 });
    const bounded = withBounds(input, ceilings);
    expect(bounded.bound).toEqual({ ceiling: 'pgHotRowPerSec', perSec: 1600, share: 1.25 });
    expect({ ...bounded, bound: input.bound }).toEqual(input);
    expect(input.bound.ceiling).toBe('pgHotRowPerSec');
    expect(input.bound.perSec).toBe(1480); // the input (bound to the fixtures' ceilings) is not changed
  });
});
