import { fastestNoLock } from './no-lock-bound';
import { sectionCeiling } from './section-ceiling';
import { runCeiling, turnCeiling } from './turn-ceiling';

describe('the fastest no-lock reading of a run', () => {
  it('is the section alone while no ring beats it, and on a tie', () => {
    expect(fastestNoLock({ ceiling: sectionCeiling([4000]), runCeiling: runCeiling(17, [4000]) })).toEqual({
      perSec: 4000,
      how: 'alone',
      label: 'the section alone',
    });
  });

  it('is a ring when the ring ran the section faster than one client alone', () => {
    const ceilings = {
      ceiling: sectionCeiling([4059, 4158]),
      turnCeiling: turnCeiling([2670]),
      runCeiling: runCeiling(17, [4899, 5796]),
    };
    expect(fastestNoLock(ceilings)).toEqual({
      perSec: 5796,
      how: 'runs',
      label: 'passed from process to process in runs of 17',
    });
    expect(fastestNoLock({ ...ceilings, turnCeiling: turnCeiling([6000]) })?.how).toBe('turns');
  });

  it('is unknown for a run that measured no ceiling, or only readings of 0', () => {
    expect(fastestNoLock({})).toBeUndefined();
    expect(fastestNoLock({ ceiling: sectionCeiling([]), turnCeiling: turnCeiling([0]) })).toBeUndefined();
  });
});
