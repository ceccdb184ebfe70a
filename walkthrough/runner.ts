import type { Step, StepContext, StepResult } from './step';

export interface RunHooks {
  before?(step: Step, index: number, total: number): void;
  after?(result: StepResult, index: number, total: number): void;
}

/** Runs one step: skipped when the API lacks a strategy it needs, `error` when it threw. */
export async function runStep(step: Step, ctx: StepContext): Promise<StepResult> {
  const missing = step.requires.filter((s) => !ctx.strategies.has(s));
  if (missing.length) return unrun(step, 'skipped', `the API does not offer ${missing.join(', ')}`, 0);
  const started = Date.now();
  try {
    const outcome = await step.run(ctx);
    const failed = outcome.checks.filter((c) => !c.pass);
    const passed = outcome.checks.length > 0 && failed.length === 0;
    return {
      ...prose(step),
      status: passed ? 'passed' : 'failed',
      verdict: passed
        ? 'as expected'
        : outcome.checks.length
          ? `NOT as expected: ${failed.map((c) => c.what).join('; ')}`
          : 'NOT as expected: the step checked nothing',
      summary: outcome.summary,
      observed: outcome.observed,
      checks: outcome.checks,
      durationMs: Date.now() - started,
      timeline: outcome.timeline,
    };
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return unrun(step, 'error', reason, Date.now() - started);
  }
}

/** What the step told before it ran, carried into its result. */
const prose = ({ name, title, explain, expected }: Step) => ({ name, title, explain, expected });

/** A step that has no outcome to report: skipped before it ran, or stopped by an error. */
function unrun(step: Step, status: 'skipped' | 'error', reason: string, durationMs: number): StepResult {
  return {
    ...prose(step),
    status,
    verdict: `${status}: ${reason}`,
    summary: '',
    observed: {},
    checks: [],
    durationMs,
    reason,
  };
}

export async function runSteps(steps: readonly Step[], ctx: StepContext, hooks: RunHooks = {}): Promise<StepResult[]> {
  const results: StepResult[] = [];
  for (const [i, step] of steps.entries()) {
    hooks.before?.(step, i, steps.length);
    const result = await runStep(step, ctx);
    results.push(result);
    hooks.after?.(result, i, steps.length);
  }
  return results;
}

/** The exit code: 0 only when no step failed or errored. */
export const exitCode = (results: readonly StepResult[]) =>
  results.some((r) => r.status === 'failed' || r.status === 'error') ? 1 : 0;
