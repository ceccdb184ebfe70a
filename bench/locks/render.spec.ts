import { lockLessons } from './lessons';
import { sampleLockResult as result } from '../../test/fixtures/lock-bench';
import { lessonLines, renderLockMarkdown, renderLockTable, type LockBenchReport } from './render';

const results = [
  result('owner-checked', true, 5123, {
    roundsGrantsPerSec: [5123, 4999, 5300],
    maxWaitMs: 121,
    p99WaitMs: 93,
    jain: 0.998,
    grantsPerProcess: [8540, 8530, 8545],
    processDeviation: 8.4 / 8538.4,
  }),
  result('owner-checked:no-local-handoff', true, 3000, { atDefaults: false }),
  result('redis-semaphore', false, 2311, {
    maxWaitMs: 3456,
    jain: 0.412,
    grantsPerProcess: [9000, 2000, 555],
    processDeviation: 1.3,
  }),
  result('redlock', false, 2544, { failedAcquisitions: 17, grants: 12720, counter: 12719, counterMatches: false }),
];

const report: LockBenchReport = {
  startedAt: '2026-11-22T05:00:00.000Z',
  machine: { cpus: 2, cpuModel: 'Test CPU', node: 'v20.20.2', platform: 'linux', totalMemGb: 4 },
  settings: { processes: 3, waiters: 50, seconds: 5, warmUpSeconds: 3, rounds: 3, leaseMs: 10000 },
  method: 'The method paragraph.',
  ceiling: { sectionPerSec: 10000, readings: [9000, 10000, 11000] },
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
    expect(table).toMatch(/^lock +grants\/s +failed +max wait +p99 wait +Jain +processes +counter$/m);
    expect(table).toMatch(/^owner-checked +5123 +0 +121 +93 +1\.00 +±0% +ok$/m);
    expect(table).toMatch(/^redis-semaphore +2311 +0 +3456 +90 +0\.41 +±130% +ok$/m);
    expect(table).toMatch(/^redlock +2544 +17 +120 +90 +0\.99 +±1% +WRONG$/m);
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

  it('tells a counter that matched in the median round but not in another', () => {
    const once = { ...report, results: [result('x', true, 1, { counterMatches: false })] };
    expect(renderLockTable(once)).toMatch(/^x +1 .* wrong once$/m);
  });
});

describe('the Markdown report', () => {
  const md = renderLockMarkdown(report);

  it('gives the run and the method above the same table as the terminal, in Markdown', () => {
    expect(md).toContain('3 processes × 50 waiters, 5 s per lock and round after a 3 s warm-up, median of 3 round(s)');
    expect(md).toContain('\nMethod: The method paragraph.\n');
    expect(md).toContain('| lock | grants/s | failed | max wait | p99 wait | Jain | processes | counter |');
    expect(md).toContain('| owner-checked | 5123 | 0 | 121 | 93 | 1.00 | ±0% | ok |');
    expect(md).toContain('| redlock | 2544 | 17 | 120 | 90 | 0.99 | ±1% | WRONG |');
    expect(md).toContain('| section alone, no lock | 10000 |  |  |  |  |  |  |');
  });

  it('ends with the lessons, each saying whether it held', () => {
    expect(md).toMatch(/## Lessons\n\n- held: A fair lock need not be slow: .*\n- held: Handing the lock/);
    expect(lessonLines(report)[0]).toMatch(/^held: A fair lock need not be slow/);
    expect(md).not.toMatch(/\bmet\b|target|Why:/i);
  });
});
