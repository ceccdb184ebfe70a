import { healAll } from '../../tools/chaos/faults';
import { DEFAULT_HOLDS_SCENARIO, HOLDS_FAULTS, runHoldsScenario } from '../../tools/chaos/holds-scenario';
import { testStack } from './support/stack';

jest.setTimeout(120_000);

// The holds run of `npm run chaos` on the e2e stack, smaller: 30 holds, PostgreSQL down 1.5 s (past
// every deadline all the same).
const SMALL = { ...DEFAULT_HOLDS_SCENARIO, holds: 30, downMs: 1500 };

describe('holds under faults: a replica killed mid-confirm, PostgreSQL restarted while holds expire', () => {
  const info = testStack();

  // Whatever happened, the specs after this one get their database back.
  afterAll(() => healAll(info));

  it.each(HOLDS_FAULTS)(
    '%s: every hold has one outcome, every unit is accounted for, every buyer learns which',
    async (fault) => {
      const result = await runHoldsScenario(info, fault, SMALL);
      expect(result.checks.filter((c) => !c.ok)).toEqual([]);
      expect(result.audit).toMatchObject({ held: 0, initialStock: 30 });
      expect(result.audit.confirmed! + result.audit.expired!).toBe(30);
      expect(result.acknowledged).toBeGreaterThan(0);
    },
  );
});
