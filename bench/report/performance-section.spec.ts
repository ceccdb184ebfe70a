import type { LockBenchReport } from '../locks/render';
import { sampleLoad, sampleReport, sampleVerdict } from './fixtures';
import { threeStrategies } from './three-strategies.fixture';
import { sampleLockResult } from '../locks/lock-fixtures';
import { renderPerformanceSection } from './performance-section';

describe('renderPerformanceSection', () => {
  const bench = threeStrategies();
  const locks: LockBenchReport = {
    startedAt: '2026-11-25T15:08:36.000Z',
    machine: bench.machine,
    method: 'm',
    settings: { processes: 3, waiters: 50, seconds: 5, rounds: 3, leaseMs: 10000 },
    results: [
      sampleLockResult('owner-checked', true, 4321, {
        maxWaitMs: 88,
        minGrantsPerWaiter: 30,
        maxGrantsPerWaiter: 30,
        jain: 1,
        grantsPerProcess: [7202, 7201, 7202],
      }),
      sampleLockResult('redis-semaphore', false, 2000),
      sampleLockResult('redlock:retry-10s', false, 5000, { atDefaults: false, counterMatches: false }),
    ],
  };
  const md = renderPerformanceSection(bench, locks);

  it('states the run with its loads and the ceilings', () => {
    expect(md).toContain(
      '`npm run bench`: stock 500, 1000 grabs over 50 connections through nginx to 3 replicas, loads workMs 0 and 5, segmented 8 segments. ceilings: http 4210/s, pg hot row 1480/s, redis 9350/s',
    );
    expect(md).toContain('Ceilings method paragraph.');
  });

  it('prints a table per load, every strategy with its verdict next to its speed and its ceiling', () => {
    const at0 = md.indexOf('**workMs 0**');
    const at5 = md.indexOf('**workMs 5**');
    expect(at0).toBeGreaterThan(0);
    expect(at5).toBeGreaterThan(at0);
    expect(
      md.match(/^\| strategy \| verdict \| grabs\/s \| of ceiling \|.* \| machine CPU µs per grant \|$/gm),
    ).toHaveLength(2);
    const none0 = md.indexOf(
      '| none | **OVERSOLD + LOST UPDATES** | 3121 | 2.11 pg hot row | 14.5 / 91.0 | 3.2 / 9.5 | – | 0.91 |',
    );
    expect(none0).toBeGreaterThan(at0);
    expect(none0).toBeLessThan(at5);
    expect(
      md.indexOf(
        '| owner-checked | correct | 131 | 0.09 pg hot row | 14.5 / 91.0 | 3.2 / 9.5 | 3333 | 0.91 | 9876 (1.30 cores) |',
      ),
    ).toBeGreaterThan(at5);
    expect(md).toContain(
      '| owner-checked | correct | 1207 | 0.82 pg hot row | 33.5 / 62.5 | 2.7 / 8.4 | 3987 | 0.97 | – |',
    );
  });

  it('marks a verdict that is not the expected one', () => {
    const surprise = sampleReport([
      sampleLoad(5, [{ strategy: 'none', verdict: sampleVerdict([], ['OVERSOLD', 'LOST UPDATES']) }]),
    ]);
    expect(renderPerformanceSection(surprise)).toContain('| none | correct (NOT as expected) | 125 |');
    expect(md).not.toContain('NOT as expected');
  });

  it('says where we stand against each target, with the measured figure', () => {
    expect(md).toContain(
      '- met: segmented (8 segments) ≥ 3× owner-checked grabs/s at workMs 5: 3.99× (524 vs 131 grabs/s)',
    );
    expect(md).toContain('- not measured: db-atomic at workMs 0 ≥ 0.8 × pg hot row ceiling: not run');
    const slowSegmented = sampleReport([
      sampleLoad(5, [
        { strategy: 'owner-checked', grabsPerSec: 200 },
        { strategy: 'segmented', grabsPerSec: 500 },
      ]),
    ]);
    expect(renderPerformanceSection(slowSegmented)).toContain(
      '- **not met**: segmented (8 segments) ≥ 3× owner-checked grabs/s at workMs 5: 2.50× (500 vs 200 grabs/s)',
    );
  });

  it('says where each strategy spends workMs', () => {
    expect(md).toContain('| none | between reading the stock and writing it back, with no lock |');
    expect(md).toContain('| owner-checked | inside the lock, between reading the stock and writing it back |');
  });

  it('adds the time-boxed micro-bench, grants per process and its verdict against the best peer at its defaults', () => {
    expect(md).toContain('3 processes × 50 waiters on one private Redis');
    expect(md).toContain('5 s per lock and round, median of 3 round(s)');
    expect(md).toContain('| owner-checked (ours) | 4321 | – | 0 | 88 | 30–30 | 1.000 | 7202 / 7201 / 7202 | yes | – |');
    expect(md).toContain('| redis-semaphore (defaults) | 2000 |');
    expect(md).toContain(
      '| redlock:retry-10s | 5000 | – | 0 | 120 | 29–31 | 0.990 | 1500 / 1490 / 1510 | **no** | – |',
    );
    expect(md).toContain(
      '- owner-checked: 2.16× redis-semaphore: met; target ≥ 2× redis-semaphore, 0 failed, Jain ≥ 0.95, processes within ±10%, max wait ≤ 200 ms, counter = grants',
    );
  });

  it('names the commands that measured it', () => {
    expect(md).toContain('`npm run bench`');
    expect(md).toContain('`npm run bench:locks`, run 2026-11-25 15:08 UTC:');
    expect(renderPerformanceSection(bench)).not.toContain('bench:locks');
  });
});
