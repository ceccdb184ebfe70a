import { checkInvariants, doubleHoldersExpected, type Observed } from './invariants';
import type { Verdict } from './outcome';
import { failedNames } from './check.fixture';

const healthy: Observed = {
  fault: 'postgres-restart',
  strategy: 'db-atomic',
  audit: { initialStock: 10, stock: 7, grants: 3, oversold: 0, lostUpdates: 0, maxConcurrentHolders: 1, statements: 3 },
  acknowledged: ['a', 'b'],
  grantedInDb: ['a', 'b', 'c'],
  resolvedByRetry: ['c'],
  verdicts: ['granted', 'granted', 'died-with-replica', 'clear', 'refused'],
  soldOutAnswers: 0,
  maxLatencyMs: 900,
  timeoutMs: 10_000,
  recovery: { sawUnhealthy: true, saw503: true, recoveryMs: 300 },
  afterRecovery: [...Array<Verdict>(40).fill('granted'), ...Array<Verdict>(10).fill('refused')],
  dependencyFault: true,
  unexpectedRestarts: 0,
};

const failed = (o: Observed) => failedNames(checkInvariants(o));

describe('checkInvariants', () => {
  it('passes a run that kept every invariant (a grant without an acknowledgement is allowed)', () => {
    expect(failed(healthy)).toEqual([]);
  });

  it.each<[string, Partial<Observed>]>([
    [
      'oversold 0',
      {
        audit: {
          initialStock: 2,
          stock: 0,
          grants: 3,
          oversold: 1,
          lostUpdates: 1,
          maxConcurrentHolders: 1,
          statements: 3,
        },
        grantedInDb: ['a', 'b', 'c'],
      },
    ],
    [
      'lost updates 0',
      {
        audit: {
          initialStock: 10,
          stock: 8,
          grants: 3,
          oversold: 0,
          lostUpdates: 1,
          maxConcurrentHolders: 1,
          statements: 3,
        },
      },
    ],
    ['every acknowledged grant is in the database', { grantedInDb: ['a', 'x', 'c'] }],
    ['grant rows = audit grants', { grantedInDb: ['a', 'b'] }],
    ['no user granted twice', { grantedInDb: ['a', 'b', 'b'] }],
    ['every failure has a clear status', { verdicts: ['granted', 'unclear'] }],
    ['no answer slower than the client timeout', { maxLatencyMs: 10_000 }],
    ['health recovered by itself', { recovery: { sawUnhealthy: true, saw503: true, recoveryMs: undefined } }],
    ['no replica crashed', { unexpectedRestarts: 1 }],
    ['grabs served again after recovery', { afterRecovery: [...healthy.afterRecovery.slice(1), 'clear'] }],
    ['grabs served again after recovery', { afterRecovery: healthy.afterRecovery.slice(1) }], // 49: too few to tell
    ['every grant acknowledged or resolved by retry', { resolvedByRetry: [] }], // a grant nobody accounts for
    ['every grant acknowledged or resolved by retry', { resolvedByRetry: ['c', 'd'] }], // a retry grant not stored
    ['health went 503 during the fault', { recovery: { sawUnhealthy: true, saw503: false, recoveryMs: 10 } }],
    [
      'health went down during the fault',
      { dependencyFault: false, recovery: { sawUnhealthy: false, saw503: false, recoveryMs: 10 } },
    ],
  ])('fails "%s" when it was broken', (name, change) => {
    expect(failed({ ...healthy, ...change })).toContain(name);
  });

  it('reads a sold-out answer while stock remained as an undersell, and one after the stock ran out as fine', () => {
    expect(failed({ ...healthy, soldOutAnswers: 1 })).toEqual(['no sold-out answer while stock remained']);
    const soldOut = { ...healthy.audit, stock: 0, grants: 10 };
    const all = [...'abcdefghij'];
    expect(
      failed({
        ...healthy,
        audit: soldOut,
        acknowledged: all,
        grantedInDb: all,
        resolvedByRetry: [],
        soldOutAnswers: 5,
      }),
    ).toEqual([]);
  });

  it('counts a 202 after recovery as served', () => {
    expect(failed({ ...healthy, afterRecovery: [...healthy.afterRecovery.slice(1), 'accepted'] })).toEqual([]);
  });

  it('checks stock + grants = initial stock on its own', () => {
    const names = failed({ ...healthy, audit: { ...healthy.audit, stock: 6 } });
    expect(names).toContain('stock + grants = initial stock');
  });
});

describe('two holders through a Redis failover', () => {
  const doubled = {
    ...healthy,
    audit: {
      initialStock: 3,
      stock: 1,
      grants: 3,
      oversold: 0,
      lostUpdates: 1,
      maxConcurrentHolders: 2,
      statements: 3,
    },
    acknowledged: ['a', 'b', 'c'],
    grantedInDb: ['a', 'b', 'c'],
    resolvedByRetry: [],
  };
  const noWait = { redisFailsOver: true, waitReplicas: 0 };

  it("fail a run unless a lease lock's failover made them the expected failure, and are counted then", () => {
    expect(failed(doubled)).toEqual(['lost updates 0', 'stock + grants = initial stock']);
    const counted = checkInvariants({ ...doubled, doubleHoldersExpected: true, overlappingSections: 1 });
    expect(counted.every((c) => c.ok)).toBe(true);
    expect(counted.find((c) => c.name === 'lost updates 0')?.detail).toBe(
      'lostUpdates 1 (expected: 2 holders through the failover, 1 overlapping pair of sections)',
    );
  });

  it('excuse no more lost updates than the overlapping pairs of sections, each of which loses one at most', () => {
    // 3 units: 2 sections overlapped twice over lose 2 decrements at most; a third loss is not theirs.
    const run = (lostUpdates: number, overlappingSections: number) => ({
      ...doubled,
      doubleHoldersExpected: true,
      overlappingSections,
      audit: { ...doubled.audit, initialStock: 3, grants: 4, stock: lostUpdates - 1, oversold: 1, lostUpdates },
      acknowledged: ['a', 'b', 'c', 'd'],
      grantedInDb: ['a', 'b', 'c', 'd'],
    });
    expect(failed(run(2, 2))).toEqual([]);
    expect(failed(run(3, 2))).toEqual(['oversold 0', 'lost updates 0', 'stock + grants = initial stock']);
    expect(failed(run(2, 0))).toEqual(['oversold 0', 'lost updates 0', 'stock + grants = initial stock']);
    // The overlaps are unknown: nothing is excused.
    expect(failed({ ...run(1, 1), overlappingSections: undefined })).toContain('lost updates 0');
  });

  it('excuse nothing once three holders were seen at once: one lost key lets in one more holder', () => {
    const three = { ...doubled, doubleHoldersExpected: true, overlappingSections: 3 };
    expect(failed({ ...three, audit: { ...doubled.audit, maxConcurrentHolders: 3 } })).toEqual([
      'lost updates 0',
      'stock + grants = initial stock',
    ]);
  });

  it('excuse no oversell or lost update when only one holder was seen', () => {
    const oneHolder = { ...doubled, doubleHoldersExpected: true, audit: { ...doubled.audit, maxConcurrentHolders: 1 } };
    expect(failed(oneHolder)).toEqual(['lost updates 0', 'stock + grants = initial stock']);
    const oversold = {
      ...oneHolder,
      audit: { ...oneHolder.audit, initialStock: 2, stock: 0, oversold: 1, lostUpdates: 1 },
    };
    expect(failed(oversold)).toEqual(['oversold 0', 'lost updates 0', 'stock + grants = initial stock']);
  });

  it('are expected only of lease locks, only when Redis fails over without WAIT, only for the Redis fault', () => {
    expect(doubleHoldersExpected('redis-restart', noWait, 'watchdog')).toBe(true);
    expect(doubleHoldersExpected('redis-restart', noWait, 'owner-checked')).toBe(true);
    expect(doubleHoldersExpected('redis-restart', noWait, 'fenced')).toBe(false);
    expect(doubleHoldersExpected('redis-restart', noWait, 'db-atomic')).toBe(false);
    expect(doubleHoldersExpected('redis-restart', { redisFailsOver: false, waitReplicas: 0 }, 'watchdog')).toBe(false);
    expect(doubleHoldersExpected('replica-kill', noWait, 'watchdog')).toBe(false);
  });

  it('fail the run under WAIT: the replicas had the lock before it was held', () => {
    const underWait = { redisFailsOver: true, waitReplicas: 1 };
    expect(doubleHoldersExpected('redis-restart', underWait, 'watchdog')).toBe(false);
    expect(doubleHoldersExpected('redis-restart', underWait, 'owner-checked')).toBe(false);
    const run = { ...doubled, doubleHoldersExpected: doubleHoldersExpected('redis-restart', underWait, 'watchdog') };
    expect(failed(run)).toEqual(['lost updates 0', 'stock + grants = initial stock']);
  });
});
