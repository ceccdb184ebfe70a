import { SECTION_CEILING_METHOD, sectionCeiling } from './section-ceiling';
import { runCeiling, runCeilingMethod, TURN_CEILING_METHOD, turnCeiling } from './turn-ceiling';

describe('the no-lock ceilings', () => {
  it('take the highest reading, since a disturbed one would flatter every lock held to them', () => {
    expect(sectionCeiling([7100, 8200, 7900])).toEqual({
      sectionPerSec: 8200,
      readings: [7100, 8200, 7900],
      method: SECTION_CEILING_METHOD,
    });
    expect(turnCeiling([3900, 4400, 4100])).toMatchObject({ turnsPerSec: 4400, method: TURN_CEILING_METHOD });
  });

  it('keep the run ring per section, as the section alone, with its run length in the figures and the method', () => {
    const fast = { node: 70, redis: 25 };
    expect(runCeiling(16, [6100, 8000], [undefined, fast])).toEqual({
      sectionsPerTurn: 16,
      sectionPerSec: 8000,
      readings: [6100, 8000],
      cpuMicrosPerSection: fast,
      cpuReadings: [null, fast],
      method: runCeilingMethod(16),
    });
    expect(runCeilingMethod(16)).toContain('16 sections back to back per turn');
    expect(runCeilingMethod(4)).toContain('4 grants each');
  });

  it('carry the CPU cost of the reading they take, and none when it was not measured', () => {
    const slow = { node: 90, redis: 30 };
    const fast = { node: 70, redis: 25 };
    expect(sectionCeiling([7100, 8200], [slow, fast]).cpuMicrosPerSection).toEqual(fast);
    expect(turnCeiling([4400, 3900], [fast, slow]).cpuMicrosPerTurn).toEqual(fast);
    expect(sectionCeiling([7100, 8200], [slow, undefined])).not.toHaveProperty('cpuMicrosPerSection');
    expect(turnCeiling([4400])).not.toHaveProperty('cpuMicrosPerTurn');
  });

  it("carry the rings' CPU wait of the reading they take, and none when it was not read", () => {
    const calm = { share: 0.05, preemptionsPerGrant: 0.2 };
    const busy = { share: 0.4, preemptionsPerGrant: 3 };
    expect(turnCeiling([4400, 3900], [], [calm, busy]).cpuWait).toEqual(calm);
    expect(runCeiling(17, [6100, 8000], [], [calm, busy]).cpuWait).toEqual(busy);
    expect(runCeiling(17, [6100, 8000], [], [calm, undefined])).not.toHaveProperty('cpuWait');
    expect(turnCeiling([4400])).not.toHaveProperty('cpuWait');
  });

  it('are 0 with no reading, so no share of them is printed as if measured', () => {
    expect(sectionCeiling([]).sectionPerSec).toBe(0);
    expect(turnCeiling([]).turnsPerSec).toBe(0);
  });
});
