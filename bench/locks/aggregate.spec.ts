import { sampleLockResult as result } from '../../test/fixtures/lock-bench';
import { aggregate, medianRound } from './aggregate';
import type { WorkerCounts } from './worker';

const report = (grantsPerWaiter: number[], waitsMs: number[], failedAcquisitions = 0, sections?: number) => ({
  grantsPerWaiter,
  waitsMs,
  failedAcquisitions,
  sections: sections ?? grantsPerWaiter.reduce((s, g) => s + g, 0),
});

describe('aggregate', () => {
  // 190 waits of 10…199 ms in process 2, so the p99 (199) sits below the longest wait (250).
  const reports: WorkerCounts[] = [
    report([2, 2], [1, 5, 9, 3], 1),
    report([1, 3], [2, 250, 4, 6], 2),
    report(
      [3, 4],
      Array.from({ length: 190 }, (_, i) => i + 10),
    ),
  ];

  it('sums grants over processes and rates them over the window', () => {
    expect(aggregate('x', true, reports, 15, 5_000)).toMatchObject({
      contender: 'x',
      ours: true,
      grantsPerSec: 3,
      failedAcquisitions: 3,
      grantsPerProcess: [4, 4, 7],
    });
    expect(aggregate('x', true, reports, 15, 2_500).grantsPerSec).toBe(6);
  });

  it('catches two holders at once: the counter falls short of the sections run, warm-up ones included', () => {
    const warmedUp = reports.map((r, i) => ({ ...r, sections: r.sections + [5, 0, 7][i] }));
    expect(aggregate('x', true, warmedUp, 27, 5_000).counterMatches).toBe(true);
    expect(aggregate('x', true, warmedUp, 26, 5_000).counterMatches).toBe(false);
    expect(aggregate('x', true, warmedUp, 15, 5_000).counterMatches).toBe(false); // the window's grants only
    expect(aggregate('x', true, reports, 15, 5_000).counterMatches).toBe(true);
  });

  it('reports the longest wait and the p99 wait', () => {
    expect(aggregate('x', true, reports, 15, 5_000)).toMatchObject({ maxWaitMs: 250, p99WaitMs: 199 });
  });

  it("takes Jain's index over every waiter of every process, not over the processes", () => {
    const r = aggregate('x', true, reports, 15, 5_000);
    expect(r.jain).toBeCloseTo(225 / (6 * 43), 10); // (2+2+1+3+3+4)² / (6 · (4+4+1+9+9+16))
    expect(r.jain).not.toBeCloseTo(225 / (3 * 81), 3); // the index over processes (4, 4, 7)
  });

  it('collects worker errors', () => {
    const failed = { ...report([0], []), error: 'Boom: no' };
    expect(aggregate('x', true, [report([1], [3]), failed], 1, 1_000).errors).toEqual(['Boom: no']);
  });

  it('is all zeros, and fair, without reports', () => {
    expect(aggregate('x', false, [], 0, 1_000)).toMatchObject({
      grantsPerSec: 0,
      maxWaitMs: 0,
      p99WaitMs: 0,
      jain: 1,
      grantsPerProcess: [],
      counterMatches: true,
    });
  });
});

describe('medianRound', () => {
  const fast = result('o', true, 300, { maxWaitMs: 50, p99WaitMs: 40 });
  const slow = result('o', true, 100, {
    maxWaitMs: 900,
    failedAcquisitions: 2,
    counterMatches: false,
    errors: ['Boom'],
  });
  const middle = result('o', true, 200, {
    maxWaitMs: 60,
    p99WaitMs: 45,
    failedAcquisitions: 1,
    grantsPerProcess: [333, 334, 333],
  });

  it('takes the middle round by grants/s', () => {
    const m = medianRound([fast, slow, middle]);
    expect(m).toMatchObject({ grantsPerSec: 200, p99WaitMs: 45, grantsPerProcess: [333, 334, 333] });
  });

  it('takes what must hold in every round over all: the longest wait, every failure, any counter mismatch, the lowest Jain', () => {
    const m = medianRound([fast, slow, middle]);
    expect(m.maxWaitMs).toBe(900);
    expect(m.failedAcquisitions).toBe(3);
    expect(m.counterMatches).toBe(false);
    expect(m.errors).toEqual(['Boom']);
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
    const single = result('o', true, 5, { maxWaitMs: 7, failedAcquisitions: 2 });
    expect(medianRound([single])).toEqual(single);
  });

  it('refuses no rounds', () => {
    expect(() => medianRound([])).toThrow('no rounds');
  });
});
