import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { LockBenchReport } from '../../bench/locks/render';
import { testPort } from '../ports';

jest.setTimeout(120_000);

// The lock micro-bench as its users run it, in miniature: its own Redis, its worker processes, the
// section alone and three contenders for one short round. How fast is the bench's business; the
// shape of what it writes and prints is this spec's.
it('measures the section alone and each contender, writes the JSON, and prints lessons in 100 columns', async () => {
  const out = mkdtempSync(join(tmpdir(), 'lock-bench-'));
  try {
    const args = ['tsx', 'bench/locks/cli.ts', '--seconds', '1', '--warm-up', '1', '--rounds', '1', '--waiters', '5'];
    args.push('--contenders', 'owner-checked,owner-checked:no-local-handoff,redlock');
    args.push('--port', String(testPort(26710)), '--out', out);
    const { stdout } = await promisify(execFile)('npx', args, { cwd: join(__dirname, '../..') });
    const files = readdirSync(out);
    expect(files).toEqual([expect.stringMatching(/^locks-.*\.json$/)]);
    const report = JSON.parse(readFileSync(join(out, files[0]), 'utf8')) as LockBenchReport;

    expect(report.results.map((r) => r.contender)).toEqual([
      'owner-checked',
      'owner-checked:no-local-handoff',
      'redlock',
    ]);
    for (const r of report.results) {
      expect(r).toMatchObject({ ours: r.contender !== 'redlock', counterMatches: true, errors: [] });
      for (const figure of ['grantsPerSec', 'failedAcquisitions', 'maxWaitMs', 'p99WaitMs', 'jain'] as const)
        expect(typeof r[figure]).toBe('number');
      expect(r.grantsPerSec).toBeGreaterThan(0);
      expect(r.jain).toBeGreaterThan(0);
      expect(r.jain).toBeLessThanOrEqual(1);
      expect(r.maxWaitMs).toBeGreaterThanOrEqual(r.p99WaitMs);
      expect(r.grantsPerProcess).toHaveLength(3);
      expect(r.grantsPerProcess.reduce((s, g) => s + g, 0)).toBe(r.grantsPerSec); // a window of 1 s
    }
    expect(report.ceiling.sectionPerSec).toBeGreaterThan(0);

    // Every lesson this run can speak to, each a sentence with a held/not held that is a boolean.
    const lessons = report.lessons;
    expect(lessons.map((l) => l.id)).toEqual(['fair-and-fast', 'local-handoff', 'lock-cost', 'queue-bounds-waits']);
    for (const l of lessons) {
      expect(typeof l.held).toBe('boolean');
      expect(l.text).toMatch(/\d/);
      expect(l.text).toMatch(l.held ? /\.$/ : / Not in this run: .+ against .+\.$|, .+ without\.$/);
    }

    const lines = stdout.split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    expect(stdout).not.toMatch(/\bmet\b|target|Why:/i);
    expect(stdout).toMatch(/^section alone, no lock +\d+$/m);
    const printed = stdout.slice(stdout.indexOf('\nLessons:\n')).replaceAll('\n  ', ' ');
    for (const l of lessons) expect(printed).toContain(`- ${l.held ? 'held' : 'did not hold'}: ${l.text}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
