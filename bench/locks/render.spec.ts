import { lockLessons } from './lessons';
import { sampleLockResult as result } from '../../test/fixtures/lock-bench';
import { renderLockTable, type LockBenchReport } from './render';

const results = [
  result('owner-checked', true, 5123, { maxWaitMs: 121, p99WaitMs: 93, jain: 0.998 }),
  result('owner-checked:no-local-handoff', true, 3000),
  result('redis-semaphore', false, 2311, { maxWaitMs: 3456, jain: 0.412 }),
  result('redlock', false, 2544, { failedAcquisitions: 17, counterMatches: false }),
];

const report: LockBenchReport = {
  startedAt: '2026-11-22T05:00:00.000Z',
  machine: { cpus: 2, cpuModel: 'Test CPU', node: 'v20.20.2', platform: 'linux', totalMemGb: 4 },
  settings: { processes: 3, waiters: 50, seconds: 5, warmUpSeconds: 3, rounds: 3, leaseMs: 10000 },
  ceiling: { sectionPerSec: 10000 },
  results,
  lessons: lockLessons(results, 10000),
};

describe('the terminal table', () => {
  const table = renderLockTable(report);
  const lines = table.split('\n');

  it('fits 100 columns, the lessons wrapped under their bullet', () => {
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    expect(lines.filter((l) => l.startsWith('- '))).toHaveLength(4);
    expect(lines.filter((l) => l.startsWith('  ')).length).toBeGreaterThan(0);
  });

  it('states the machine and the run above one row per lock, then the section alone', () => {
    expect(table).toMatch(
      /^2 × Test CPU, Node v20\.20\.2\. 3 processes × 50 waiters, 5 s per lock and round after a 3 s warm-up,/,
    );
    expect(table).toMatch(/^lock +grants\/s +failed +max wait +p99 wait +Jain +counter$/m);
    expect(table).toMatch(/^owner-checked +5123 +0 +121 +93 +1\.00 +ok$/m);
    expect(table).toMatch(/^redis-semaphore +2311 +0 +3456 +90 +0\.41 +ok$/m);
    expect(table).toMatch(/^redlock +2544 +17 +120 +90 +0\.99 +WRONG$/m);
    expect(table).toMatch(/^section alone, no lock +10000$/m);
  });

  it('ends with the lessons, each saying whether it held, and never a target', () => {
    const after = table.slice(table.indexOf('\nLessons:\n'));
    expect(after).toContain('- held: A fair lock need not be slow: owner-checked 5,123 grants/s with Jain 1.00');
    const unwrapped = after.replaceAll('\n  ', ' ');
    expect(unwrapped).toMatch(
      /\n- did not hold: Waiting in a queue keeps every wait short: .* Not in this run: 121 against 120 ms\.$/,
    );
    expect(table).not.toMatch(/\bmet\b|target|Why:/i);
  });
});
