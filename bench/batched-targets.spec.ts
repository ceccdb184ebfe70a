import { batchedChecks } from './batched-targets';
import { sampleLoad, sampleReport, sampleVerdict } from './report/fixtures';
import type { StrategyResult } from './types';

type Row = Partial<StrategyResult> & { strategy: string };
const latency = (p99: number) => ({
  all: { p50: 10, p99, p999: p99, max: p99, mean: 12, stddev: 3 },
  granted: { p50: 10, p99, p999: p99, max: p99, mean: 12, stddev: 3 },
  turnedAway: { p50: 3, p99: 9, p999: 9, max: 9, mean: 4, stddev: 1 },
});
// Sample ceilings: pg hot row 1480/s, http 4210/s.
const run = (fast: Row[], work: Row[] = []) => batchedChecks(sampleReport([sampleLoad(0, fast), sampleLoad(5, work)]));

describe('batchedChecks', () => {
  it('checks nothing when db-batched did not run', () => {
    expect(run([{ strategy: 'db-atomic' }])).toEqual([]);
  });

  it('meets every target from the same run when the figures are there', () => {
    const checks = run(
      [
        { strategy: 'db-atomic', grabsPerSec: 400, latency: latency(100) },
        { strategy: 'db-batched', grabsPerSec: 3000, latency: latency(150), audit: { ...batchAudit(500, 20) } },
      ],
      [{ strategy: 'db-batched', audit: batchAudit(500, 40) }],
    );
    expect(checks.map((c) => [c.target, c.met])).toEqual([
      ['db-batched at workMs 0 ≥ 2 × db-atomic', true],
      ['db-batched at workMs 0 ≥ 2 × pg hot row ceiling', true],
      ['db-batched at workMs 0 ≥ 0.5 × http ceiling', true],
      ["db-batched p99 at workMs 0 ≤ 2 × db-atomic's", true],
      ['db-batched exact in every load (oversold 0, lost updates 0, every 200 a grant)', true],
    ]);
    expect(checks[0].measured).toBe('7.50× (3000 vs 400 grabs/s)');
    expect(checks.some((c) => c.why)).toBe(false);
    expect(checks[4].measured).toBe('2 load(s), 500 grants in 20 statements; 500 grants in 40 statements');
  });

  it('fails each target on its own figure, and exactness on any load', () => {
    const checks = run(
      [
        { strategy: 'db-atomic', grabsPerSec: 400, latency: latency(100) },
        { strategy: 'db-batched', grabsPerSec: 700, latency: latency(201) },
      ],
      [
        {
          strategy: 'db-batched',
          audit: { ...batchAudit(500, 40), oversold: 1, grants: 501 },
          verdict: sampleVerdict(['OVERSOLD'], []),
        },
      ],
    );
    expect(checks.map((c) => c.met)).toEqual([false, false, false, false, false]);
    expect(checks[4].measured).toBe('not exact at workMs 5 (OVERSOLD)');
    // Where a throughput target is missed, the grab path's own rate in the run says how far off the bound is.
    expect(checks[0].why).toBe(
      '800/s wanted; the grab path alone (a sold-out grab through nginx, no database) ran at 3333/s in this run, and db-batched at 0.21 of it',
    );
    expect(checks[2].why).toContain('2105/s wanted; the grab path alone');
  });

  it('says why the hot row target is out of reach when the http ceiling itself is below it', () => {
    const report = sampleReport([sampleLoad(0, [{ strategy: 'db-batched', grabsPerSec: 1000 }])]);
    const slowHttp = { ...report, ceilings: { ...report.ceilings, httpPerSec: 2400, pgHotRowPerSec: 2000 } };
    const check = batchedChecks(slowHttp)[1];
    expect(check).toMatchObject({ met: false, measured: '0.50× (1000 vs 2000/s)' });
    expect(check.why).toContain('the http ceiling itself is 1.20× the pg hot row ceiling');
  });

  it('says "not run" for the comparisons whose counterpart is missing', () => {
    const checks = run([{ strategy: 'db-batched', grabsPerSec: 3000 }]);
    expect(checks[0]).toMatchObject({ measured: 'not run', met: undefined });
    expect(checks[3]).toMatchObject({ measured: 'not run', met: undefined });
    expect(checks[1].met).toBe(true);
  });
});

function batchAudit(grants: number, statements: number) {
  return { initialStock: grants, stock: 0, grants, oversold: 0, lostUpdates: 0, maxConcurrentHolders: 30, statements };
}
