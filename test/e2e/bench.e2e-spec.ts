import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unexpectedVerdicts } from '../../bench/bench-command';
import { parseBenchArgs } from '../../bench/options';
import { writeReport, type ReportFiles } from '../../bench/report/write-report';
import { runBench } from '../../bench/runner';
import { scenarioFor } from '../../bench/scenarios';
import { targetOf } from '../../bench/target';
import type { BenchReport, StrategyResult } from '../../bench/types';
import { testStack } from './support/stack';

jest.setTimeout(400_000);

// The bench's --quick run over the real stack: the ceilings, then every strategy the API lists
// under both loads, through nginx, then the sell-out race and the lessons.
describe('npm run bench -- --quick', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'oversell-bench-'));
  let report: BenchReport;
  let files: ReportFiles;
  let listed: string[];
  const every = (): StrategyResult[] => report.loads.flatMap((l) => l.results);

  beforeAll(async () => {
    const info = testStack();
    listed = ((await (await fetch(`${info.nginxUrl}/strategies`)).json()) as { name: string }[]).map((s) => s.name);
    const options = parseBenchArgs(['--quick', '--out', outDir]);
    report = await runBench(targetOf(info), options.settings);
    files = writeReport(report, options.outDir);
  });

  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('measures the three ceilings in the same run', () => {
    for (const name of ['httpPerSec', 'pgHotRowPerSec', 'redisPerSec'] as const) {
      expect(report.ceilings[name]).toBeGreaterThan(0);
    }
  });

  it('runs every strategy the API lists under each load, every request answered', () => {
    expect(report.loads.map((l) => l.workMs)).toEqual([0, 2]);
    for (const load of report.loads) {
      expect(load.results.map((r) => r.strategy)).toEqual(listed);
      for (const r of load.results) {
        const s = r.statuses;
        const answered =
          s.granted + s.soldOut + s.duplicate + s.fenceRejected + s.lockTimeout + s.unavailable + s.outsideContract;
        expect({ strategy: r.strategy, answered, errors: s.errors + s.timeouts }).toEqual({
          strategy: r.strategy,
          answered: report.settings.requests,
          errors: 0,
        });
      }
    }
  });

  it('gives every strategy the verdict scenarios.ts expects, under both loads', () => {
    expect(unexpectedVerdicts(report).map((r) => `${r.strategy}@${r.workMs}: ${r.verdict.label}`)).toEqual([]);
    const correct = every().filter((r) => scenarioFor(r.strategy).expectedFlags.length === 0);
    expect(correct.length).toBeGreaterThan(10);
    for (const r of correct) expect(r.statuses.granted).toBe(report.settings.stock);
    const none = every().filter((r) => r.strategy === 'none');
    for (const r of none) expect(r.verdict.flags).toEqual(['OVERSOLD', 'LOST UPDATES']);
  });

  it('answers the sold-out crowd of every correct strategy with 409 STOCK.SOLD_OUT only', () => {
    for (const r of every().filter((x) => scenarioFor(x.strategy).expectedFlags.length === 0)) {
      expect({ strategy: r.strategy, requests: r.soldOut?.requests, other: r.soldOut?.otherAnswers }).toEqual({
        strategy: r.strategy,
        requests: report.settings.requests,
        other: 0,
      });
    }
  });

  it('holds every grab rate to a ceiling, and splits latency into granted and turned away', () => {
    for (const r of every().filter((x) => x.statuses.granted > 1)) {
      expect(r.bound.perSec).toBe(report.ceilings[r.bound.ceiling]);
      expect(r.bound.share).toBeCloseTo(r.grabsPerSec / r.bound.perSec, 10);
      expect(r.latency.granted?.max).toBeGreaterThan(0);
      expect(r.utilisation.meanSectionMs).toBeGreaterThan(0);
      if (process.platform === 'linux') expect(r.cpuMicrosPerRequest).toBeGreaterThan(0);
    }
  });

  it('states the lessons of the run, each with its numbers, and whether it held', () => {
    const ids = report.lessons.map((l) => l.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'no-lock-oversells',
        'local-mutex-oversells',
        'atomic-beats-locks',
        'one-lock-serialises',
        'segments-sell-out-faster',
        'coalescing-fewer-commits',
        'orders-ride-out-a-slow-database',
        'sold-out-costs-one-request',
      ]),
    );
    expect(ids.length).toBeLessThanOrEqual(8);
    for (const l of report.lessons) {
      expect(l.text).toMatch(/\d/);
      expect(typeof l.held).toBe('boolean');
      if (!l.held) expect(l.notHeld).toMatch(/\d/);
      expect(l.shownBy).toBeTruthy();
    }
    // The wrong baselines are wrong on every run: these two must hold.
    expect(report.lessons.filter((l) => l.id.endsWith('-oversells')).map((l) => l.held)).toEqual([true, true]);
  });

  it('races segmented against owner-checked to sell out, both exact, the stock rows sampled meanwhile', () => {
    expect(report.sellOut?.runs.map((r) => r.strategy)).toEqual(['owner-checked', 'segmented']);
    for (const r of report.sellOut!.runs) {
      expect({ strategy: r.strategy, granted: r.granted, left: r.stockLeft }).toEqual({
        strategy: r.strategy,
        granted: report.sellOut!.stock,
        left: 0,
      });
      expect(r.sellOutMs).toBeGreaterThan(0);
      expect(r.samples.length).toBeGreaterThan(1);
    }
  });

  it('judges redis-stream once drained, with accept-to-durable latency', () => {
    for (const r of every().filter((x) => x.strategy === 'redis-stream')) {
      expect(r.audit).toMatchObject({ grants: r.statuses.granted, stock: r.audit.initialStock - r.statuses.granted });
      expect(r.acceptToDurable).toMatchObject({ count: r.statuses.granted });
    }
  });

  it('holds the stock row while the same crowd buys from each design: every buyer answered, every order a grant', () => {
    const slow = report.slowDb!;
    expect(slow.runs.map((r) => r.strategy)).toEqual(['db-atomic', 'redis-lua', 'redis-stream']);
    for (const r of slow.runs) {
      expect({ strategy: r.strategy, correct: r.correct }).toEqual({ strategy: r.strategy, correct: true });
      expect(r.stallToMs - r.stallFromMs).toBeGreaterThanOrEqual(slow.stallMs);
      expect(r.sentMs).toHaveLength(slow.buyers);
    }
    // A buyer whose answer waits for the database cannot be answered before the row is released.
    for (const r of slow.runs.filter((x) => x.strategy !== 'redis-stream'))
      expect(r.stalled?.max).toBeGreaterThanOrEqual(slow.stallMs * 0.9);
  });

  it('writes the JSON and the self-contained HTML report, a table per load, the lessons on top', () => {
    for (const file of [files.json, files.html]) expect(existsSync(file)).toBe(true);
    const json = JSON.parse(readFileSync(files.json, 'utf8')) as BenchReport;
    expect(json.ceilings.httpPerSec).toBe(report.ceilings.httpPerSec);
    expect(json.lessons).toEqual(report.lessons);
    const html = readFileSync(files.html, 'utf8');
    const loadSections = html.split('<h2>').filter((section) => section.startsWith('workMs '));
    expect(loadSections).toHaveLength(report.loads.length);
    for (const section of loadSections) {
      const rows = [...section.matchAll(/^<tr><td class="left">([^<]+)<\/td>/gm)].map((m) => m[1]);
      expect(rows).toEqual(listed);
    }
    // Four charts per load, the segments' stock over the sell-out race, the waits through the stall;
    // each lesson's chart among them.
    expect(html.match(/<svg /g)).toHaveLength(4 * report.loads.length + 2);
    expect(html).toContain('<h2>Sell-out time</h2>');
    const charts = html.slice(html.indexOf('</ul>'));
    for (const l of report.lessons) expect(charts).toContain(l.shownBy);
    expect(html.indexOf('<h2>What this run teaches</h2>')).toBeLessThan(html.indexOf('<table>'));
    expect(html).not.toMatch(/\bmet\b|target/i);
    expect(html).not.toMatch(/<script|<link|\ssrc=|\shref=/i);
  });
});
