import { runHoldRaces } from '../../tools/holds/hold-races';
import { testStack } from './support/stack';

jest.setTimeout(180_000);

describe('confirm versus expiry, raced across the three replicas', () => {
  it('300 races: every hold has one outcome, no unit returns twice, every unit accounted for; the naive path sells a unit twice', async () => {
    const report = await runHoldRaces(testStack(), { races: 300, reholdSamples: 5 });
    expect({
      twoOutcomes: report.twoOutcomes,
      returnedTwice: report.returnedTwice,
      answersAgainstDatabase: report.answersAgainstDatabase,
      otherAnswers: report.otherAnswers,
      exact: report.exact,
      held: report.audit.held,
      settled: report.confirmed + report.refused,
    }).toEqual({
      twoOutcomes: 0,
      returnedTwice: 0,
      answersAgainstDatabase: 0,
      otherAnswers: 0,
      exact: true,
      held: 0,
      settled: 300,
    });
    // Both outcomes happened, or nothing was raced: confirms that won (200) and confirms that lost (409 HOLD.EXPIRED).
    expect(report.confirmed).toBeGreaterThan(0);
    expect(report.refused).toBeGreaterThan(0);
    expect(report.audit.confirmed).toBe(report.confirmed);
    expect(report.audit.expired).toBe(report.refused);
    expect(Math.max(...report.reheldAfterMs)).toBeLessThan(1000);
    expect(report.naiveGrants).toBeGreaterThanOrEqual(2);
  });
});
