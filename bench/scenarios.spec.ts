import { grabQuery, scenarioFor, scenarios, segmentsFor } from './scenarios';

describe('scenarioFor', () => {
  it('runs a strategy the map does not name with the defaults: one row, exclusion promised, correct, every ceiling', () => {
    expect(scenarioFor('added-later')).toEqual({
      segments: 'one',
      promisesExclusion: true,
      expectedFlags: [],
      bounds: ['httpPerSec', 'pgHotRowPerSec', 'redisPerSec'],
      workAt: 'inside the lock, between reading the stock and writing it back',
    });
  });

  it('expects the baselines to fail, and only them', () => {
    expect(scenarioFor('none').expectedFlags).toEqual(['OVERSOLD', 'LOST UPDATES']);
    expect(scenarioFor('synchronized').expectedFlags).toEqual(['OVERSOLD', 'LOST UPDATES', 'TWO HOLDERS']);
    const failing = Object.keys(scenarios).filter((s) => scenarioFor(s).expectedFlags.length > 0);
    expect(failing).toEqual(['none', 'synchronized']);
  });

  it('bounds each design by the ceilings its grabs pass through', () => {
    expect(scenarioFor('db-atomic').bounds).toEqual(['httpPerSec', 'pgHotRowPerSec']);
    expect(scenarioFor('segmented').bounds).toEqual(['httpPerSec', 'redisPerSec']);
    expect(scenarioFor('redis-lua').bounds).toEqual(['httpPerSec', 'pgHotRowPerSec', 'redisPerSec']);
  });

  it('says where every named strategy spends workMs', () => {
    for (const name of Object.keys(scenarios)) expect(scenarioFor(name).workAt.length).toBeGreaterThan(0);
    expect(scenarioFor('db-atomic').workAt).toBe('before the deducting statement (there is no section to put it in)');
  });
});

describe('segmentsFor and grabQuery', () => {
  it('splits only segmented into the --segments option', () => {
    expect(segmentsFor('segmented', 8)).toBe(8);
    expect(segmentsFor('owner-checked', 8)).toBe(1);
  });

  it('sends the strategy and workMs with every grab', () => {
    expect(grabQuery('watchdog', 5)).toEqual({ strategy: 'watchdog', workMs: '5' });
  });
});
