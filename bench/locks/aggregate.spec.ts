import { sampleLockResult as result } from '../../test/fixtures/lock-bench';
import { aggregate, medianRound, roundOrder, type WorkerReport } from './aggregate';

const report = (
  processIndex: number,
  grantsPerWaiter: number[],
  waitsMs: number[],
  failedAcquisitions = 0,
  warmUpSections = 0,
): WorkerReport => ({ processIndex, grantsPerWaiter, waitsMs, failedAcquisitions, warmUpSections });

const counters = (counter: number, warmUpCounter = 0) => ({ counter, warmUpCounter });

describe('aggregate', () => {
  // 190 waits of 10…199 ms in process 2, so the p99 (199) sits below the longest wait (250).
  const reports = [
    report(0, [2, 2], [1, 5, 9, 3], 1),
    report(1, [1, 3], [2, 250, 4, 6], 2),
    report(
      2,
      [3, 4],
      Array.from({ length: 190 }, (_, i) => i + 10),
    ),
  ];
  const meta = { ours: true, atDefaults: false };

  it('sums grants over processes and rates them over the window', () => {
    expect(aggregate('x', meta, reports, counters(15), 5_000)).toMatchObject({
      contender: 'x',
      ours: true,
      atDefaults: false,
      grants: 15,
      windowMs: 5_000,
      grantsPerSec: 3,
      processes: 3,
      waiters: 6,
      failedAcquisitions: 3,
    });
    expect(aggregate('x', meta, reports, counters(15), 2_500).grantsPerSec).toBe(6);
    expect(aggregate('x', meta, reports, counters(15), 0).grantsPerSec).toBe(0);
  });

  it('catches two holders at once, in the window or in the warm-up: a counter falls short of its sections', () => {
    const warmed = reports.map((r, i) => ({ ...r, warmUpSections: [5, 0, 7][i] }));
    expect(aggregate('x', meta, warmed, counters(15, 12), 5_000).counterMatches).toBe(true);
    expect(aggregate('x', meta, warmed, counters(14, 12), 5_000)).toMatchObject({ counter: 14, counterMatches: false });
    expect(aggregate('x', meta, warmed, counters(15, 11), 5_000).counterMatches).toBe(false);
    expect(aggregate('x', meta, reports, counters(15), 5_000).counterMatches).toBe(true);
  });

  it('reports the longest wait, the p99 wait and the spread of grants per waiter', () => {
    expect(aggregate('x', meta, reports, counters(15), 5_000)).toMatchObject({
      maxWaitMs: 250,
      p99WaitMs: 199,
    });
  });

  it("takes Jain's index over every waiter of every process, not over the processes", () => {
    const r = aggregate('x', meta, reports, counters(15), 5_000);
    expect(r.jain).toBeCloseTo(225 / (6 * 43), 10); // (2+2+1+3+3+4)² / (6 · (4+4+1+9+9+16))
    expect(r.jain).not.toBeCloseTo(225 / (3 * 81), 3); // the index over processes (4, 4, 7)
  });

  it('lists grants per process and how far the furthest process is from their mean', () => {
    const r = aggregate('x', meta, reports, counters(15), 5_000);
    expect(r.grantsPerProcess).toEqual([4, 4, 7]);
    expect(r.processDeviation).toBeCloseTo(0.4, 10); // mean 5, furthest 7: 2 / 5
    // The furthest process may sit below the mean: 2 of a mean of 5 is 3 away.
    const behind = [report(0, [2], []), report(1, [6], []), report(2, [7], [])];
    expect(aggregate('x', meta, behind, counters(15), 1_000).processDeviation).toBeCloseTo(0.6, 10);
    const even = [report(0, [5, 5], []), report(1, [4, 6], [])];
    expect(aggregate('x', meta, even, counters(20), 1_000).processDeviation).toBe(0);
  });

  it('collects worker errors', () => {
    const failed = { ...report(2, [0], []), error: 'Boom: no' };
    const r = aggregate('x', meta, [report(0, [1], [3]), failed], counters(1), 1_000);
    expect(r.errors).toEqual(['process 2: Boom: no']);
  });

  it('is all zeros, and fair, without reports', () => {
    expect(aggregate('x', { ours: false, atDefaults: true }, [], counters(0), 1_000)).toMatchObject({
      processes: 0,
      waiters: 0,
      grants: 0,
      grantsPerSec: 0,
      maxWaitMs: 0,
      jain: 1,
      grantsPerProcess: [],
      processDeviation: 0,
      counterMatches: true,
    });
  });
});

describe('medianRound', () => {
  const fast = result('o', true, 300, { maxWaitMs: 50, p99WaitMs: 40, counter: 1500 });
  const slow = result('o', true, 100, {
    maxWaitMs: 900,
    failedAcquisitions: 2,
    counterMatches: false,
    counter: 499,
    grants: 500,
    errors: ['process 1: Boom'],
  });
  const middle = result('o', true, 200, {
    maxWaitMs: 60,
    p99WaitMs: 45,
    failedAcquisitions: 1,
    grantsPerProcess: [333, 334, 333],
    counter: 1000,
    grants: 1000,
  });

  it("takes the middle round by grants/s and keeps every round's figure", () => {
    const m = medianRound([fast, slow, middle]);
    expect(m.grantsPerSec).toBe(200);
    expect(m.roundsGrantsPerSec).toEqual([300, 100, 200]);
    expect(m).toMatchObject({ p99WaitMs: 45, grantsPerProcess: [333, 334, 333], counter: 1000, grants: 1000 });
  });

  it('takes what must hold in every round over all: the longest wait, every failure, any counter mismatch, the lowest Jain', () => {
    const m = medianRound([fast, slow, middle]);
    expect(m.maxWaitMs).toBe(900);
    expect(m.failedAcquisitions).toBe(3);
    expect(m.counterMatches).toBe(false);
    expect(m.errors).toEqual(['process 1: Boom']);
    expect(medianRound([fast, result('o', true, 50, { jain: 0.5 }), middle]).jain).toBe(0.5);
  });

  it('stays clean when every round was', () => {
    const m = medianRound([fast, middle]);
    expect(m).toMatchObject({
      grantsPerSec: 200,
      maxWaitMs: 60,
      failedAcquisitions: 1,
      counterMatches: true,
      errors: [],
    });
  });

  it('takes the lower middle of an even count, and a single round as is', () => {
    expect(
      medianRound([result('o', true, 4), result('o', true, 1), result('o', true, 3), result('o', true, 2)])
        .grantsPerSec,
    ).toBe(2);
    const single = result('o', true, 5);
    expect(medianRound([single])).toBe(single);
    expect(medianRound([single]).roundsGrantsPerSec).toBeUndefined();
  });

  it('refuses no rounds', () => {
    expect(() => medianRound([])).toThrow('no rounds');
  });
});

describe('roundOrder', () => {
  it('rotates the starting contender each round', () => {
    expect(roundOrder(['a', 'b', 'c'], 0)).toEqual(['a', 'b', 'c']);
    expect(roundOrder(['a', 'b', 'c'], 1)).toEqual(['b', 'c', 'a']);
    expect(roundOrder(['a', 'b', 'c'], 3)).toEqual(['a', 'b', 'c']);
    expect(roundOrder([], 2)).toEqual([]);
  });
});
