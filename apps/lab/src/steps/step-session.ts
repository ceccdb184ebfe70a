import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { StepEvent } from '@app/contract';
import { runStep } from '../../../../walkthrough/runner';
import type { Step, StepContext, StepResult } from '../../../../walkthrough/step';
import { labRedis } from '../config/lab-redis';
import type { LabSettings } from '../config/lab-settings';
import { CancellableLockKeys, GuardedStackApi, UndeclaredUseError } from './guarded-step-context';

export interface StepSessionOptions {
  readonly settings: LabSettings;
  /** POSTs to the stack's control endpoint; absent under docker-compose. */
  readonly control?: (path: string) => Promise<unknown>;
  readonly signal: AbortSignal;
  readonly emit: (event: StepEvent<StepResult>) => void;
}

/**
 * Runs one walkthrough step exactly as the command line does (`runStep`), in a context that lets
 * it do only what it declared, tells its narration as it goes, and stops it when the run is cancelled.
 */
export async function runStepSession(
  step: Step,
  { settings, control, signal, emit }: StepSessionOptions,
): Promise<{ result: StepResult; couponIds: number[] }> {
  const uses = step.uses ?? [];
  // Stops the step when the run is cancelled, or when it does something it did not declare.
  const stop = new AbortController();
  const cancelled = () => stop.abort(signal.reason);
  signal.addEventListener('abort', cancelled, { once: true });
  const api = new GuardedStackApi(settings.apiUrl, settings.replicas, settings.adminToken, stop, step.name, uses);
  const redis = labRedis(settings);
  const scratchDir = join(settings.scratchDir, 'walkthrough');
  mkdirSync(scratchDir, { recursive: true });
  const ctx: StepContext = {
    api,
    keys: new CancellableLockKeys(redis, stop.signal),
    strategies: new Set(await api.strategies()),
    control: (path) => {
      if (!uses.includes('control') || !control)
        return Promise.reject(new UndeclaredUseError(`the step ${step.name} calls the control endpoint (${path})`));
      if (stop.signal.aborted) return Promise.reject(stop.signal.reason as Error);
      return control(path);
    },
    scratchDir,
    sparePorts: uses.includes('servers') ? settings.sparePorts : [],
    say: (line) => emit({ type: 'say', line, at: Date.now() }),
  };
  emit({ type: 'step', name: step.name, title: step.title, explain: step.explain, expected: step.expected });
  try {
    const result = await runStep(step, ctx);
    // Whatever the step concluded after a refused grab, its verdict cannot stand.
    if (api.violation) return { result: refused(result, api.violation), couponIds: api.couponIds };
    return { result, couponIds: api.couponIds };
  } finally {
    signal.removeEventListener('abort', cancelled);
    redis.disconnect();
  }
}

function refused(result: StepResult, violation: Error): StepResult {
  const reason = `${violation.name}: ${violation.message}`;
  return { ...result, status: 'error', verdict: `error: ${reason}`, reason, checks: [], observed: {} };
}
