import { SECTION_CEILING_METHOD, sectionCeiling } from './section-ceiling';

describe('sectionCeiling', () => {
  it('takes the highest reading, since a disturbed one would flatter every lock held to it', () => {
    expect(sectionCeiling([7100, 8200, 7900])).toEqual({
      sectionPerSec: 8200,
      readings: [7100, 8200, 7900],
      method: SECTION_CEILING_METHOD,
    });
  });

  it('is 0 with no reading, so no share of it is printed as if measured', () => {
    expect(sectionCeiling([]).sectionPerSec).toBe(0);
  });
});
