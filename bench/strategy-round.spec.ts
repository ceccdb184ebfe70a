import type { Audit, Grant } from '@app/contract';
import type { RoundOutcome } from './load-round';
import { withBounds } from './scenarios';
import { emptyStatusCounts } from './metrics/verdict';
import { sampleCeilings } from '../test/fixtures/bench-report';
import { summaryColumns } from './report/columns';
import { assembleResult } from './strategy-round';
import type { StatusCounts } from './types';

const outcome = (overrides: Partial<RoundOutcome> = {}): RoundOutcome => ({
  durationMs: 2_000,
  answered: 4,
  statuses: { ...emptyStatusCounts(), granted: 3, soldOut: 1 },
  grantedMs: [10, 40, 30],
  turnedAwayMs: [20],
  lastGrantAfterMs: 1_200,
  machineCpuMs: undefined,
  ...overrides,
});
const audit: Audit = {
  initialStock: 3,
  stock: 0,
  grants: 3,
  oversold: 0,
  lostUpdates: 0,
  maxConcurrentHolders: 1,
  statements: 3,
};
const grant = (enteredAt: string, leftAt: string): Grant => ({
  userId: 'u',
  replica: 'api-1',
  strategy: 'owner-checked',
  segment: 0,
  fenceToken: null,
  enteredAt,
  leftAt,
});
const grants = [
  grant('2026-11-22T04:00:00.000Z', '2026-11-22T04:00:00.100Z'),
  grant('2026-11-22T04:00:00.100Z', '2026-11-22T04:00:00.200Z'),
  grant('2026-11-22T04:00:00.300Z', '2026-11-22T04:00:00.400Z'),
];
const assemble = (
  strategy: string,
  readback: Partial<Parameters<typeof assembleResult>[2]> = {},
  measured = outcome(),
  soldOut?: RoundOutcome,
) =>
  assembleResult({ strategy, workMs: 5 }, measured, { couponId: 9, audit, grants, commits: 3, ...readback }, soldOut);

describe('assembleResult', () => {
  const r = assemble('owner-checked');

  it('names the round: strategy, load, coupon, and the commits counted', () => {
    expect(r).toMatchObject({ strategy: 'owner-checked', workMs: 5, couponId: '9', commits: 3 });
  });

  it('counts grabs/s up to the last 200, not to the last answer', () => {
    expect(r.grabsPerSec).toBeCloseTo(2.5, 10); // 3 grants in 1.2 s
  });

  it('is 0 grabs/s when nothing was granted', () => {
    expect(assemble('owner-checked', {}, outcome({ lastGrantAfterMs: 0, durationMs: 0 })).grabsPerSec).toBe(0);
  });

  it('splits latency into the granted and the turned-away answers', () => {
    expect(r.latency.granted).toEqual({ count: 3, p50: 30, p99: 40, max: 40 });
    expect(r.latency.turnedAway).toEqual({ count: 1, p50: 20, p99: 20, max: 20 });
  });

  it('has no latency of a kind that had no answer, rather than a made-up 0', () => {
    const none = assemble(
      'owner-checked',
      {},
      outcome({ statuses: { ...emptyStatusCounts(), soldOut: 4 }, grantedMs: [], lastGrantAfterMs: 0 }),
    );
    expect(none.latency.granted).toBeNull();
    expect(summaryColumns.find((c) => c.header === 'granted p99 ms')?.value(none)).toBe('–');
  });

  it('reconciles the 200s against the grant rows, counting unanswered requests', () => {
    expect(r.reconciliation).toEqual({ grantedSeen: 3, grantsInDb: 3, matches: true, unanswered: 0 });
    const short = assemble('owner-checked', { grants: grants.slice(1) });
    expect(short.reconciliation).toMatchObject({ grantedSeen: 3, grantsInDb: 2, matches: false });
    const statuses: StatusCounts = { ...emptyStatusCounts(), granted: 3, errors: 2, timeouts: 1 };
    expect(assemble('owner-checked', {}, outcome({ statuses })).reconciliation.unanswered).toBe(3);
  });

  it('derives the sections and the hand-off from the grant timestamps', () => {
    // Sections of 100 ms at 0, 100 and 300: gaps of 0 and 100 ms.
    expect(r.utilisation.meanSectionMs).toBeCloseTo(100, 10);
    expect(r.utilisation.meanGapMs).toBeCloseTo(50, 10);
  });

  it("carries the machine's CPU per request answered, when it was read", () => {
    // 4 answered while the machine spent 1800 ms of CPU.
    expect(assemble('db-atomic', {}, outcome({ machineCpuMs: 1_800 })).cpuMicrosPerRequest).toBe(450_000);
    expect(r).not.toHaveProperty('cpuMicrosPerRequest');
  });

  it('judges with the scenario map', () => {
    expect(r.verdict).toMatchObject({ label: 'correct', expected: [], asExpected: true });
    const twoHolders = { ...audit, maxConcurrentHolders: 2 };
    expect(assemble('owner-checked', { audit: twoHolders }).verdict.label).toBe('TWO HOLDERS');
    expect(assemble('db-atomic', { audit: twoHolders }).verdict.label).toBe('correct');
  });

  it('reads redis-stream from Redis acceptance to the grant row, and judges its 202s against the grant rows', () => {
    const accepted = (acceptedAt: string, leftAt: string) => ({ ...grant(acceptedAt, leftAt), acceptedAt });
    const streamed = [
      accepted('2026-11-22T04:00:00.000Z', '2026-11-22T04:00:00.020Z'),
      accepted('2026-11-22T04:00:00.010Z', '2026-11-22T04:00:00.050Z'),
    ];
    const r = assemble('redis-stream', { grants: streamed, audit: { ...audit, stock: 1, grants: 2 } });
    expect(r.acceptToDurable).toEqual({ count: 2, p50: 20, p99: 40, max: 40 });
    expect(r.verdict.label).toBe('UNDERSOLD + NOT RECONCILED');
    expect(assemble('owner-checked').acceptToDurable).toBeUndefined();
  });

  it('says whether the verdict is the one scenarios.ts expects', () => {
    const oversold = { ...audit, grants: 4, oversold: 1, lostUpdates: 1 };
    const grantedAll = outcome({ statuses: { ...emptyStatusCounts(), granted: 4 } });
    const none = assemble('none', { audit: oversold, grants: [...grants, grants[0]] }, grantedAll);
    expect(none.verdict).toMatchObject({
      label: 'OVERSOLD + LOST UPDATES',
      expected: ['OVERSOLD', 'LOST UPDATES'],
      asExpected: true,
    });
    expect(assemble('none').verdict).toMatchObject({ correct: true, asExpected: false });
  });

  it('reads UNDERSOLD when stock was left while buyers were turned away with 429', () => {
    const statuses: StatusCounts = { ...emptyStatusCounts(), granted: 2, lockTimeout: 2 };
    const v = assemble(
      'owner-checked',
      { audit: { ...audit, stock: 1, grants: 2 }, grants: grants.slice(1) },
      outcome({ statuses }),
    ).verdict;
    expect(v).toMatchObject({ label: 'UNDERSOLD', asExpected: false });
  });

  it('leaves the bound empty until the run knows its ceilings', () => {
    expect(r.bound).toEqual({ ceiling: 'httpPerSec', perSec: 0, share: 0 });
    expect(withBounds(r, sampleCeilings).bound).toEqual({
      ceiling: 'pgHotRowPerSec',
      perSec: 1480,
      share: 2.5 / 1480,
    });
  });

  it('has no sold-out round unless one ran', () => {
    expect(r).not.toHaveProperty('soldOut');
  });

  it('reads the sold-out round: its rate and any answer other than sold out', () => {
    const soldOut = outcome({
      durationMs: 500,
      answered: 4,
      statuses: { ...emptyStatusCounts(), soldOut: 3, lockTimeout: 1 },
      grantedMs: [],
      turnedAwayMs: [6, 2, 8, 4],
      lastGrantAfterMs: 0,
    });
    expect(assemble('owner-checked', {}, outcome(), soldOut).soldOut).toEqual({
      requests: 4,
      perSec: 8,
      otherAnswers: 1,
    });
    expect(assemble('owner-checked', {}, outcome(), { ...soldOut, durationMs: 0 }).soldOut?.perSec).toBe(0);
  });
});
