import { TURN_CEILING_METHOD, turnCeiling } from './turn-ceiling';

describe('turnCeiling', () => {
  it('takes the highest reading, and 0 with none, like the section ceiling', () => {
    expect(turnCeiling([3900, 4400, 4100])).toEqual({
      turnsPerSec: 4400,
      readings: [3900, 4400, 4100],
      method: TURN_CEILING_METHOD,
    });
    expect(turnCeiling([]).turnsPerSec).toBe(0);
  });
});
