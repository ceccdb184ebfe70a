import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { openContext, sparePorts, type OpenContext } from '../../walkthrough/context';
import type { JsonReport } from '../../walkthrough/report/json';
import { runStep } from '../../walkthrough/runner';
import { allSteps } from '../../walkthrough/steps';
import { E2E_SPARE_PORT_BASE, e2eStackDir, testStack } from './support/stack';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..');
// Jest's testTimeout is global, not per project: the steps state their own.
const STEP_TIMEOUT_MS = 90_000;

/** The seeds' steps: still there. Every step, these and the later ones, must run and be as expected. */
const SEED_STEPS = [
  'none',
  'synchronized',
  'setnx-crash',
  'set-nx-px',
  'owner-checked',
  'nested',
  'watchdog-pause',
  'watchdog-freeze',
  'segmented',
  'failover',
];

describe('the walkthrough, every step on the real stack', () => {
  let open: OpenContext;

  beforeAll(async () => {
    open = await openContext(testStack(), {
      ports: sparePorts({ WALKTHROUGH_PORT_BASE: String(E2E_SPARE_PORT_BASE) }),
    });
  });

  afterAll(() => open?.close());

  it('knows every seed step', () => {
    expect(allSteps.map((s) => s.name)).toEqual(expect.arrayContaining(SEED_STEPS));
  });

  for (const step of allSteps) {
    it(
      `${step.name}: ${step.expected}`,
      async () => {
        const result = await runStep(step, open.ctx);
        // The failed checks, with their figures, are the useful message when a verdict is wrong.
        expect({ status: result.status, reason: result.reason, failed: result.checks.filter((c) => !c.pass) }).toEqual({
          status: 'passed',
          reason: undefined,
          failed: [],
        });
        expect(result.checks.length).toBeGreaterThan(0);
      },
      STEP_TIMEOUT_MS,
    );
  }

  it(
    'the command line writes the JSON figures and a Markdown report with its timeline SVGs',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'walkthrough-'));
      try {
        const { stdout } = await run(
          join(ROOT, 'node_modules/.bin/tsx'),
          [
            'walkthrough/cli.ts',
            '--stack-dir',
            e2eStackDir(),
            '--step',
            'set-nx-px',
            '--json',
            join(dir, 'run.json'),
            '--markdown',
            join(dir, 'run.md'),
          ],
          { cwd: ROOT, timeout: 80_000, env: { ...process.env, WALKTHROUGH_PORT_BASE: String(E2E_SPARE_PORT_BASE) } },
        );
        expect(stdout).toContain('set-nx-px');
        expect(stdout).toContain('Verdict: as expected');
        const report = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as JsonReport;
        expect(report.passed).toBe(true);
        expect(report.steps).toHaveLength(1);
        expect(report.steps[0]).toMatchObject({ name: 'set-nx-px', status: 'passed', verdict: 'as expected' });
        expect(report.steps[0].observed.maxConcurrentHolders).toBeGreaterThanOrEqual(2);
        expect(report.steps[0].observed.foreignDeleteEvents).toBeGreaterThanOrEqual(1);
        const md = readFileSync(join(dir, 'run.md'), 'utf8');
        expect(md).toContain('![timeline of set-nx-px](run-set-nx-px.svg)');
        const svg = readFileSync(join(dir, 'run-set-nx-px.svg'), 'utf8');
        expect(svg).toContain('class="overlap"');
        expect(svg).toContain('class="tick foreign-delete"');
        expect(existsSync(join(dir, 'run-none.svg'))).toBe(false);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    STEP_TIMEOUT_MS,
  );
});
