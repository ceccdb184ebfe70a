import { roundMet } from './sched-view';

describe("roundMet: the challenge judged from the audit's figures", () => {
  const exact = { oversold: 0, maxConcurrentHolders: 1 };
  const twoHoldersExact = { oversold: 0, maxConcurrentHolders: 2 };
  const sold2 = { oversold: 1, maxConcurrentHolders: 2 };

  it('an oversell meets the oversell challenges (none, set-nx-px), nothing less', () => {
    for (const strategy of ['none', 'set-nx-px'] as const) {
      expect(roundMet(strategy, sold2)).toBe(true);
      expect(roundMet(strategy, twoHoldersExact)).toBe(false);
      expect(roundMet(strategy, exact)).toBe(false);
    }
  });

  it('two holders at once meet owner-checked’s challenge', () => {
    expect(roundMet('owner-checked', twoHoldersExact)).toBe(true);
    expect(roundMet('owner-checked', exact)).toBe(false);
  });

  it('fenced and db-atomic set a challenge to try, never met', () => {
    expect(roundMet('fenced', sold2)).toBe(false);
    expect(roundMet('db-atomic', exact)).toBe(false);
  });
});
