import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBenchArgs } from '../../bench/options';
import { writeReport, type ReportFiles } from '../../bench/report/write-report';
import { runBench } from '../../bench/runner';
import { scenarioFor } from '../../bench/scenarios';
import { targetOf } from '../../bench/stack-target';
import type { BenchReport } from '../../bench/types';
import { testStack } from './support/stack';

jest.setTimeout(300_000);

// The bench's --quick run over the real stack: every strategy the API lists, through nginx.
describe('npm run bench -- --quick', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'oversell-bench-'));
  let report: BenchReport;
  let files: ReportFiles;
  let listed: string[];

  beforeAll(async () => {
    const info = testStack();
    listed = ((await (await fetch(`${info.nginxUrl}/strategies`)).json()) as { name: string }[]).map((s) => s.name);
    const options = parseBenchArgs(['--quick', '--out', outDir]);
    report = await runBench(targetOf(info), options.settings);
    files = writeReport(report, options.outDir);
  });

  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('runs every strategy the API lists, every request answered', () => {
    expect(report.results.map((r) => r.strategy)).toEqual(listed);
    for (const r of report.results) {
      const s = r.statuses;
      const answered =
        s.granted + s.soldOut + s.duplicate + s.fenceRejected + s.lockTimeout + s.otherClientError + s.serverError;
      expect({ strategy: r.strategy, answered, errors: s.errors + s.timeouts }).toEqual({
        strategy: r.strategy,
        answered: r.requests,
        errors: 0,
      });
    }
  });

  it('finds the correct strategies correct: nothing oversold, no lost update, 200s = grant rows', () => {
    const correct = report.results.filter((r) => scenarioFor(r.strategy).expectedCorrect);
    expect(correct.length).toBeGreaterThan(5);
    for (const r of correct) {
      expect({
        strategy: r.strategy,
        oversold: r.audit.oversold,
        lostUpdates: r.audit.lostUpdates,
        verdict: r.verdict.label,
        reconciled: r.reconciliation.matches,
      }).toEqual({ strategy: r.strategy, oversold: 0, lostUpdates: 0, verdict: 'correct', reconciled: true });
      expect(r.statuses.granted).toBe(report.settings.stock);
    }
  });

  it('finds `none` wrong: oversold or lost updates, and says so in the verdict', () => {
    const none = report.results.find((r) => r.strategy === 'none')!;
    expect(none.audit.oversold + none.audit.lostUpdates).toBeGreaterThan(0);
    expect(none.verdict.correct).toBe(false);
    expect(none.verdict.label).toMatch(/OVERSOLD|LOST UPDATES/);
    expect(none.reconciliation.matches).toBe(true);
  });

  it('measures utilisation and fairness from real grants and latencies', () => {
    for (const r of report.results.filter((x) => x.statuses.granted > 1)) {
      expect(r.utilisation.busyShare).toBeGreaterThan(0);
      expect(r.utilisation.busyShare).toBeLessThanOrEqual(1);
      expect(r.fairness.maxLatencyMs).toBeGreaterThanOrEqual(r.latency.p99);
      expect(r.grabsPerSec).toBeGreaterThan(0);
    }
  });

  it('writes the JSON, Markdown and self-contained HTML reports', () => {
    for (const file of [files.json, files.markdown, files.html]) expect(existsSync(file)).toBe(true);
    expect(files.html.startsWith(outDir)).toBe(true);
    const json = JSON.parse(readFileSync(files.json, 'utf8')) as BenchReport;
    expect(json.results.map((r) => r.strategy)).toEqual(listed);
    const md = readFileSync(files.markdown, 'utf8');
    for (const strategy of listed) expect(md).toMatch(new RegExp(`^\\| ${strategy} \\| `, 'm'));
    const html = readFileSync(files.html, 'utf8');
    expect(html.match(/<svg /g)).toHaveLength(3);
    expect(html).not.toMatch(/<script|<link|\ssrc=|\shref=/i);
  });
});
