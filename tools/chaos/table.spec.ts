import { auditOf } from '../../test/fixtures/audit';
import { scenarioResult } from './scenario-result.fixture';
import type { HoldsScenarioResult } from './holds-scenario';
import {
  holders,
  renderFailures,
  renderHoldsTable,
  renderLossNotes,
  renderTable,
  statusSummary,
  verdictCell,
} from './table';

const holdsRun: HoldsScenarioResult = {
  fault: 'replica-kill',
  couponId: 2,
  holds: 60,
  confirms: 40,
  acknowledged: 20,
  unanswered: 20,
  audit: auditOf(60, 20, { held: 0, confirmed: 20, expired: 40, cancelled: 0 }),
  twoOutcomes: 0,
  returnedTwice: 0,
  statuses: { '200': 20, UND_ERR_SOCKET: 20 },
  recoveryMs: 10_900,
  checks: [{ name: 'no unit returned twice', ok: false, detail: '1 returned more than once' }],
  ok: false,
};

describe('chaos table', () => {
  it('sums statuses biggest first', () => {
    expect(statusSummary({ '200': 3, '502': 1, '409 STOCK.SOLD_OUT': 5 })).toBe('409 STOCK.SOLD_OUT×5 200×3 502×1');
  });

  it('prints one aligned row per scenario with its figures and verdict', () => {
    const lines = renderTable([
      scenarioResult({}),
      scenarioResult({ fault: 'replica-kill', recoveryMs: undefined, ok: false }),
    ]).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(
      /^fault\s+strategy\s+requests\s+acked grants\s+stored unacked\s+grants in db\s+oversold\s+lost updates\s+holders\s+statuses\s+recovery\s+after recovery\s+verdict$/,
    );
    expect(lines[2]).toMatch(
      /^redis-restart\s+watchdog\s+600\s+239\s+0\s+239\s+0\s+0\s+1\s+503 DEPENDENCY.UNAVAILABLE×361 200×239\s+5.5 s\s+150\s+ok$/,
    );
    expect(lines[3]).toMatch(/never\s+150\s+FAIL$/);
    expect(lines[2].indexOf('239')).toBe(lines[0].indexOf('acked grants'));
  });

  it('marks two holders as expected only where the run says a failover made them so', () => {
    const audit = { ...scenarioResult({}).audit, maxConcurrentHolders: 2 };
    expect(holders(scenarioResult({ audit, doubleHoldersExpected: true }))).toBe('2 (expected)');
    expect(holders(scenarioResult({ audit }))).toBe('2');
    expect(holders(scenarioResult({ doubleHoldersExpected: true }))).toBe('1');
  });

  it('lists the failed checks only', () => {
    const checks = [
      { name: 'oversold 0', ok: false, detail: 'oversold 2' },
      { name: 'lost updates 0', ok: true, detail: '' },
    ];
    expect(renderFailures([scenarioResult({ checks, ok: false })])).toEqual([
      'redis-restart / watchdog: oversold 0 — oversold 2',
    ]);
  });

  it("never shows a bare ok for a run that could lose accepted orders with Redis's memory", () => {
    const stream = { strategy: 'redis-stream', acknowledged: 0, accepted: 239 };
    expect(verdictCell(scenarioResult({ ...stream, lostByDesign: 3 }))).toBe('ok, 3 accepted lost (no AOF)');
    expect(verdictCell(scenarioResult({ ...stream, lostByDesign: 0 }))).toBe('ok, 0 accepted lost (no AOF)');
    expect(verdictCell(scenarioResult({ ...stream, lostByDesign: 3, ok: false }))).toBe('FAIL');
    expect(verdictCell(scenarioResult(stream))).toBe('ok');
    expect(renderLossNotes([scenarioResult({ ...stream, lostByDesign: 3 }), scenarioResult({})])).toEqual([
      expect.stringMatching(/^redis-restart \/ redis-stream: 3 of 239 accepted orders lost with Redis's memory/),
    ]);
  });

  it('prints one row per holds run, and names its failed checks fault / holds', () => {
    const lines = renderHoldsTable([holdsRun]).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^fault\s+holds\s+confirms\s+acked\s+unanswered\s+confirmed in db\s+expired\s+stock \+ held \+ confirmed/,
    );
    expect(lines[2]).toMatch(
      /^replica-kill\s+60\s+40\s+20\s+20\s+20\s+40\s+60 of 60\s+0\s+0\s+200×20 UND_ERR_SOCKET×20\s+10.9 s\s+FAIL$/,
    );
    expect(renderFailures([holdsRun])).toEqual([
      'replica-kill / holds: no unit returned twice — 1 returned more than once',
    ]);
  });
});
