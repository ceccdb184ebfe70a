import { sellOutSection } from './sell-out-chart';
import { medianRun, sellOutCheck } from './sell-out-target';
import type { SellOutResult, SellOutRun } from './sell-out.types';

const run = (strategy: string, sellOutMs: number, stockLeft = 0): SellOutRun => ({
  strategy,
  segments: strategy === 'segmented' ? 2 : 1,
  sellOutMs,
  granted: 300 - stockLeft,
  stockLeft,
  answers: { '200': 300 - stockLeft },
  samples: [
    { atMs: 0, stocks: [150, 150] },
    { atMs: sellOutMs, stocks: [0, stockLeft] },
  ],
});
const result = (runs: SellOutRun[]): SellOutResult => ({ buyers: 300, stock: 300, inFlight: 64, workMs: 5, runs });

describe('sell-out target', () => {
  it('compares the median runs of the same bench', () => {
    const r = result([
      run('owner-checked', 2400),
      run('segmented', 900),
      run('owner-checked', 2100),
      run('segmented', 600),
      run('owner-checked', 2700),
      run('segmented', 700),
    ]);
    expect(medianRun(r, 'segmented')?.sellOutMs).toBe(700);
    expect(sellOutCheck(r)).toEqual([
      expect.objectContaining({ met: true, measured: '3.43× (2400 vs 700 ms, medians of 3 run(s))' }),
    ]);
  });

  it('is not met below 3×, nor when a coupon did not sell out', () => {
    expect(sellOutCheck(result([run('owner-checked', 2000), run('segmented', 1000)]))[0].met).toBe(false);
    const unsold = sellOutCheck(result([run('owner-checked', 3000), run('segmented', 500, 4)]))[0];
    expect(unsold.met).toBe(false);
    expect(unsold.measured).toContain('not sold out: segmented 4 left');
  });

  it('checks nothing without a sell-out run, and "not run" without both contenders', () => {
    expect(sellOutCheck(undefined)).toEqual([]);
    expect(sellOutCheck(result([run('segmented', 500)]))[0]).toMatchObject({ measured: 'not run', met: undefined });
  });

  it("draws each segment's stock over the median segmented run", () => {
    const html = sellOutSection(result([run('owner-checked', 2000), run('segmented', 500)]));
    expect(html).toContain('<h2>Sell-out time</h2>');
    expect(html.match(/<polyline/g)).toHaveLength(2);
    expect(html).toContain('segment 1');
    expect(sellOutSection(undefined)).toBe('');
  });
});
