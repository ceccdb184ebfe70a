import type { RoundOutcome } from './load-round';
import { isoToMs } from './metrics/iso-time';
import type { ApiClient } from './api-client';
import { assembleResult, resolveStrategies } from './runner';
import type { Audit } from './types';

const measured: RoundOutcome = {
  startedAt: 1_000,
  durationMs: 2_000,
  answered: 4,
  statuses: {
    granted: 3,
    soldOut: 1,
    duplicate: 0,
    fenceRejected: 0,
    lockTimeout: 0,
    otherClientError: 0,
    serverError: 0,
    errors: 0,
    timeouts: 0,
  },
  latenciesMs: [10, 20, 30, 40],
  lastGrantAfterMs: 1_500,
};
const audit: Audit = { initialStock: 3, stock: 0, grants: 3, oversold: 0, lostUpdates: 0, maxConcurrentHolders: 1 };
const grant = (enteredAt: string, leftAt: string) => ({
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

describe('assembleResult', () => {
  const r = assembleResult(
    'owner-checked',
    '9',
    { strategy: 'owner-checked', workMs: '5' },
    1,
    4,
    measured,
    audit,
    grants,
    { maxWaitMs: 77, held: [{ start: isoToMs('2026-11-22T04:00:00.000Z'), end: isoToMs('2026-11-22T04:00:00.350Z') }] },
  );

  it('counts grabs/s up to the last 200 and req/s over the whole round', () => {
    expect(r.grabsPerSec).toBeCloseTo(2, 10); // 3 grants in 1.5 s
    expect(r.requestsPerSec).toBeCloseTo(2, 10); // 4 answers in 2 s
  });

  it('reconciles the 200s against the grant rows', () => {
    expect(r.reconciliation).toEqual({ grantedSeen: 3, grantsInDb: 3, matches: true, unanswered: 0 });
    const short = assembleResult('owner-checked', '9', {}, 1, 4, measured, audit, grants.slice(1));
    expect(short.reconciliation.matches).toBe(false);
  });

  it('derives utilisation from the grant timestamps', () => {
    expect(r.utilisation.windowMs).toBe(400);
    expect(r.utilisation.busyShare).toBeCloseTo(0.75, 10);
    // The lock was held 350 of the 400 ms: more than the database section, as it must be.
    expect(r.utilisation.lockHeldShare).toBeCloseTo(0.875, 10);
  });

  it("reports fairness from the latencies and the replicas' lock waits", () => {
    expect(r.fairness).toMatchObject({ maxLatencyMs: 40, spreadMs: 20, maxLockWaitMs: 77 });
    expect(r.fairness.latencyJain).toBeCloseTo(100 ** 2 / (4 * 3000), 10);
  });

  it('judges with the scenario map', () => {
    expect(r.verdict.label).toBe('correct');
    const two = assembleResult('owner-checked', '9', {}, 1, 4, measured, { ...audit, maxConcurrentHolders: 2 }, grants);
    expect(two.verdict.label).toBe('TWO HOLDERS');
    const atomic = assembleResult('db-atomic', '9', {}, 1, 4, measured, { ...audit, maxConcurrentHolders: 2 }, grants);
    expect(atomic.verdict.label).toBe('correct');
  });
});

describe('resolveStrategies', () => {
  const api = {
    strategies: () => Promise.resolve([{ name: 'none' }, { name: 'setnx' }, { name: 'redis-lua' }]),
  } as unknown as ApiClient;

  it('takes every strategy the API lists, newcomers included, when none is asked for', async () => {
    expect(await resolveStrategies(api, [])).toEqual(['none', 'setnx', 'redis-lua']);
  });

  it('keeps the asked order and refuses names the API does not list', async () => {
    expect(await resolveStrategies(api, ['setnx', 'none'])).toEqual(['setnx', 'none']);
    await expect(resolveStrategies(api, ['setnx', 'sentx'])).rejects.toThrow(
      'unknown strategies: sentx (the API lists: none, setnx, redis-lua)',
    );
  });
});
