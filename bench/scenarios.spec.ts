import { scenarioFor, scenarios, segmentsFor } from './scenarios';

describe('scenarioFor', () => {
  it('runs a strategy the map does not name with the defaults: one row, exclusion promised, correct, every ceiling', () => {
    expect(scenarioFor('added-later')).toEqual({
      segments: 'one',
      promisesExclusion: true,
      expectedFlags: [],
      bounds: ['httpPerSec', 'pgHotRowPerSec', 'redisPerSec'],
      inLock: true,
      successStatus: 200,
    });
  });

  it('expects the baselines to fail, and only them', () => {
    const failing = Object.keys(scenarios).filter((s) => scenarioFor(s).expectedFlags.length > 0);
    expect(failing).toEqual(['none', 'synchronized']);
  });

  it('bounds each design by the ceilings its grabs pass through', () => {
    expect(scenarioFor('db-atomic').bounds).toEqual(['httpPerSec', 'pgHotRowPerSec']);
    expect(scenarioFor('segmented').bounds).toEqual(['httpPerSec', 'redisPerSec']);
    expect(scenarioFor('db-batched').bounds).toEqual(['httpPerSec']);
    expect(scenarioFor('redis-stream').bounds).toEqual(['httpPerSec', 'redisPerSec']);
  });

  it('takes 202 accepted as the success answer of redis-stream alone', () => {
    const accepting = Object.keys(scenarios).filter((s) => scenarioFor(s).successStatus === 202);
    expect(accepting).toEqual(['redis-stream']);
  });

  it('puts the work inside a Redis lock only for the lock strategies', () => {
    const inLock = ['owner-checked', 'watchdog', 'segmented', 'fenced', ...Object.keys(scenarios)].filter(
      (s) => scenarioFor(s).inLock,
    );
    expect(inLock).toEqual(['owner-checked', 'watchdog', 'segmented', 'fenced', 'segmented']);
  });
});

describe('segmentsFor', () => {
  it('splits only segmented into the --segments option', () => {
    expect(segmentsFor('segmented', 8)).toBe(8);
    expect(segmentsFor('owner-checked', 8)).toBe(1);
  });
});
