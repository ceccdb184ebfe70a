import { sampleReport, sampleResult } from './report/fixtures';
import { checkTargets, isSingleLock } from './targets';

describe('isSingleLock', () => {
  it('covers correct single-row locks, not the baselines, segmented or the database strategies', () => {
    expect(isSingleLock('owner-checked')).toBe(true);
    expect(isSingleLock('a-strategy-added-later')).toBe(true);
    expect(
      ['none', 'synchronized', 'segmented', 'db-atomic', 'db-optimistic', 'redis-lua'].filter(isSingleLock),
    ).toEqual([]);
  });
});

describe('checkTargets', () => {
  it('fails the segmented speed-up below 3× and utilisation below 0.8', () => {
    const checks = checkTargets(
      sampleReport([
        sampleResult({
          strategy: 'owner-checked',
          grabsPerSec: 200,
          utilisation: { busyShare: 0.79, meanHolders: 0.79, windowMs: 1 },
        }),
        sampleResult({ strategy: 'segmented', grabsPerSec: 590 }),
      ]),
    );
    expect(checks.map((c) => c.met)).toEqual([false, false]);
    expect(checks[0].measured).toBe('2.95× (590 vs 200)');
  });

  it('says "not run" when a side of the ratio is missing', () => {
    const [ratio] = checkTargets(sampleReport([sampleResult({ strategy: 'none' })]));
    expect(ratio).toMatchObject({ measured: 'not run', met: undefined });
  });
});
