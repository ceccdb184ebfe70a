import type { LockBenchResult } from '../locks/aggregate';
import { threeStrategies } from './fixtures';
import { renderPerformanceSection } from './performance-section';

const lock = (contender: string, ours: boolean, grantsPerSec: number): LockBenchResult => ({
  contender,
  ours,
  grantsPerSec,
  processes: 3,
  waiters: 150,
  grants: 4500,
  elapsedMs: 1000,
  failedAcquisitions: 0,
  maxWaitMs: 88,
  p99WaitMs: 70,
  minGrantsPerWaiter: 30,
  maxGrantsPerWaiter: 30,
  jain: 1,
  counter: 4500,
  counterMatches: true,
  errors: [],
});

describe('renderPerformanceSection', () => {
  const bench = threeStrategies();
  const locks = {
    startedAt: bench.startedAt,
    machine: bench.machine,
    method: 'm',
    settings: { processes: 3, waiters: 50, grants: 4500, rounds: 3, leaseMs: 10000 },
    results: [lock('owner-checked', true, 4321), lock('redis-semaphore', false, 2000)],
  };
  const md = renderPerformanceSection(bench, locks);

  it('lists every strategy with its verdict next to its speed', () => {
    expect(md).toContain('| none | **OVERSOLD + LOST UPDATES** | 277 | 489 | 2346 |');
    expect(md).toContain('| owner-checked | correct | 0 | 0 | 131 |');
  });

  it('says where we stand against each target, with the measured figure', () => {
    expect(md).toContain('- met: segmented (8 segments) ≥ 3× owner-checked grabs/s at workMs 5: 3.99×');
    expect(md).toContain(
      '- met: owner-checked ≥ 1.5× the best peer with 0 failed, Jain ≥ 0.95, max wait ≤ 200 ms: 2.16× redis-semaphore',
    );
    expect(md).toContain('| owner-checked (ours) | 4321 | 0 | 88 | 30–30 | 1.000 | yes |');
  });

  it('names the commands that measured it', () => {
    expect(md).toContain('`npm run bench`');
    expect(md).toContain('`npm run bench:locks`');
    expect(renderPerformanceSection(bench)).not.toContain('bench:locks');
  });
});
