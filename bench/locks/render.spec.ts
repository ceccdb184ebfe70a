import type { LockBenchResult } from './aggregate';
import { renderLockMarkdown, renderLockTable, type LockBenchReport } from './render';

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
  maxWaitMs: 121,
  p99WaitMs: 93,
  minGrantsPerWaiter: 29,
  maxGrantsPerWaiter: 31,
  jain: 0.998,
  counter: 4500,
  counterMatches: true,
  errors: [],
  ...extra,
});

const report: LockBenchReport = {
  startedAt: '2026-11-22T05:00:00.000Z',
  machine: { cpus: 2, cpuModel: 'Test CPU', node: 'v20.20.2', platform: 'linux', totalMemGb: 4 },
  settings: { processes: 3, waiters: 50, grants: 4500, rounds: 3, leaseMs: 10000 },
  method: 'The method paragraph.',
  results: [
    result('owner-checked', true, 5123, { roundsGrantsPerSec: [5123, 4999, 5300] }),
    result('redis-semaphore', false, 2311, {
      maxWaitMs: 3456,
      minGrantsPerWaiter: 1,
      maxGrantsPerWaiter: 288,
      jain: 0.412,
    }),
    result('redlock', false, 2544, { failedAcquisitions: 17, counter: 4499, counterMatches: false }),
  ],
};

describe('lock micro-bench rendering', () => {
  it('tabulates every figure and the ratio to the best peer', () => {
    const table = renderLockTable(report);
    expect(table).toMatch(
      /owner-checked \(ours\)\s+5123\s+5123 4999 5300\s+0\s+121\s+93\s+29\/31\s+0\.998\s+yes \(4500\)/,
    );
    expect(table).toMatch(/redis-semaphore\s+2311\s+2311\s+0\s+3456\s+93\s+1\/288\s+0\.412/);
    expect(table).toMatch(/redlock\s+2544\s+2544\s+17\s.*NO 4499≠4500/);
    expect(table).toContain('owner-checked: 2.01× redlock');
    expect(table).toContain(': meets)');
  });

  it('writes Markdown headed by machine, Node and method', () => {
    const md = renderLockMarkdown(report);
    expect(md).toContain('- Machine: 2 × Test CPU');
    expect(md).toContain('- Node: v20.20.2');
    expect(md).toContain('Method: The method paragraph.');
    expect(md).toContain(
      '| owner-checked (ours) | 5123 | 5123 4999 5300 | 0 | 121 | 93 | 29/31 | 0.998 | yes (4500) |',
    );
    expect(md).toContain('- owner-checked: 2.01× redlock');
  });
});
