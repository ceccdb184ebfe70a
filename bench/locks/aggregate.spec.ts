import { aggregate, medianRound, meetsTargets, ratiosToBestPeer, roundOrder, type LockBenchResult } from './aggregate';
import type { WorkerReport } from './messages';

const report = (
  processIndex: number,
  grantsPerWaiter: number[],
  waitsMs: number[],
  startedAt: number,
  finishedAt: number,
  failedAcquisitions = 0,
): WorkerReport => ({ processIndex, grantsPerWaiter, waitsMs, startedAt, finishedAt, failedAcquisitions });

describe('aggregate', () => {
  const reports = [
    report(0, [2, 2], [1, 5, 9, 3], 1_000, 1_900, 1),
    report(1, [1, 3], [2, 250, 4, 6], 1_010, 2_000, 2),
  ];

  it('sums grants over processes and times them from the first start to the last finish', () => {
    const r = aggregate('x', true, reports, 8);
    expect(r).toMatchObject({
      grants: 8,
      elapsedMs: 1_000,
      grantsPerSec: 8,
      processes: 2,
      waiters: 4,
      failedAcquisitions: 3,
    });
  });

  it('reports the longest wait and the spread of grants per waiter', () => {
    const r = aggregate('x', true, reports, 8);
    expect(r).toMatchObject({ maxWaitMs: 250, minGrantsPerWaiter: 1, maxGrantsPerWaiter: 3 });
    expect(r.jain).toBeCloseTo(64 / (4 * 18), 10); // (2+2+1+3)² / (4 · (4+4+1+9))
  });

  it('catches two holders at once: the counter falls short of the grants', () => {
    expect(aggregate('x', true, reports, 8).counterMatches).toBe(true);
    expect(aggregate('x', true, reports, 7).counterMatches).toBe(false);
  });

  it('collects worker errors', () => {
    const failed = { ...report(2, [0], [], 0, 1), error: 'Boom: no' };
    expect(aggregate('x', false, [failed], 0).errors).toEqual(['process 2: Boom: no']);
  });
});

const result = (
  contender: string,
  ours: boolean,
  grantsPerSec: number,
  extra: Partial<LockBenchResult> = {},
): LockBenchResult => ({
  contender,
  ours,
  grantsPerSec,
  processes: 3,
  waiters: 150,
  grants: 4500,
  elapsedMs: 1000,
  failedAcquisitions: 0,
  maxWaitMs: 120,
  p99WaitMs: 90,
  minGrantsPerWaiter: 29,
  maxGrantsPerWaiter: 31,
  jain: 0.99,
  counter: 4500,
  counterMatches: true,
  errors: [],
  ...extra,
});

describe('ratiosToBestPeer', () => {
  it('divides each of ours by the fastest peer', () => {
    const ratios = ratiosToBestPeer([
      result('owner-checked', true, 6000),
      result('a', false, 2000),
      result('b', false, 2500),
    ]);
    expect(ratios).toEqual([{ ours: 'owner-checked', bestPeer: 'b', ratio: 2.4 }]);
  });

  it('is empty without peers', () => {
    expect(ratiosToBestPeer([result('owner-checked', true, 1)])).toEqual([]);
  });
});

describe('meetsTargets', () => {
  it('needs the ratio, no failures, fairness, a short max wait and an exact counter', () => {
    expect(meetsTargets(result('o', true, 1), 1.5)).toBe(true);
    expect(meetsTargets(result('o', true, 1), 1.49)).toBe(false);
    expect(meetsTargets(result('o', true, 1, { failedAcquisitions: 1 }), 2)).toBe(false);
    expect(meetsTargets(result('o', true, 1, { jain: 0.94 }), 2)).toBe(false);
    expect(meetsTargets(result('o', true, 1, { maxWaitMs: 201 }), 2)).toBe(false);
    expect(meetsTargets(result('o', true, 1, { counterMatches: false }), 2)).toBe(false);
  });
});

describe('medianRound', () => {
  it("takes the middle round by grants/s and keeps every round's figure", () => {
    const m = medianRound([result('o', true, 300), result('o', true, 100), result('o', true, 200)]);
    expect(m.grantsPerSec).toBe(200);
    expect(m.roundsGrantsPerSec).toEqual([300, 100, 200]);
  });

  it('takes the lower middle of an even count, and a single round as is', () => {
    expect(
      medianRound([result('o', true, 4), result('o', true, 1), result('o', true, 3), result('o', true, 2)])
        .grantsPerSec,
    ).toBe(2);
    expect(medianRound([result('o', true, 5)]).roundsGrantsPerSec).toBeUndefined();
  });
});

describe('roundOrder', () => {
  it('rotates the starting contender each round', () => {
    expect(roundOrder(['a', 'b', 'c'], 0)).toEqual(['a', 'b', 'c']);
    expect(roundOrder(['a', 'b', 'c'], 1)).toEqual(['b', 'c', 'a']);
    expect(roundOrder(['a', 'b', 'c'], 3)).toEqual(['a', 'b', 'c']);
  });
});
