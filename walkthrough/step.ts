import type { StepNeed } from '@app/contract';
import type { StackApi } from './stack-api';
import type { LockKeys } from './lock-keys';
import type { TimelineInput } from './timeline/timeline-model';

/** A figure the step observed: printed, put in the JSON, compared by the checks. */
export type Figure = number | string | boolean | null;

/** One expectation of a step, and whether the run met it. */
export interface Check {
  readonly what: string;
  readonly expected: string;
  readonly observed: Figure;
  readonly pass: boolean;
}

/** What a step's run hands back. */
export interface StepOutcome {
  /** The headline figures, in the order they should be shown. */
  readonly observed: Record<string, Figure>;
  readonly checks: Check[];
  /** One sentence: what happened, in plain words (e.g. "the lock was lost: 2 holders overlapped"). */
  readonly summary: string;
  /** Present when the step had lock holders worth drawing. */
  readonly timeline?: TimelineInput;
}

/** Everything a step may use; built once per walkthrough run. */
export interface StepContext {
  readonly api: StackApi;
  readonly keys: LockKeys;
  /** Strategy names the running API offers (GET /strategies). */
  readonly strategies: ReadonlySet<string>;
  /** POSTs to the stack's control endpoint (replica kill, Redis stop/start, …). */
  control(path: string): Promise<unknown>;
  /** A scratch directory for servers the step starts itself. */
  readonly scratchDir: string;
  /** Private ports a step may use for servers it starts (the failover pair). */
  readonly sparePorts: readonly number[];
  /** A progress line under the step's narration. */
  say(line: string): void;
}

export interface Step {
  readonly name: string;
  readonly title: string;
  /** What is about to happen and why, in plain words, printed before the run. */
  readonly explain: string;
  /** What the step expects to see, printed before the run and kept in the JSON. */
  readonly expected: string;
  /** Strategies the step needs; when the API lacks one, the step is skipped, not failed. */
  readonly requires: readonly string[];
  /**
   * What the step does beyond plain grabs through nginx (none when absent): chaos options, faults,
   * the control endpoint, servers of its own. The lab page asks for the admin token before a fault
   * and refuses, at run time, anything a step does that it did not declare.
   */
  readonly uses?: readonly StepNeed[];
  run(ctx: StepContext): Promise<StepOutcome>;
}

export type StepStatus = 'passed' | 'failed' | 'skipped' | 'error';

/** A step's result as reported (terminal, JSON, Markdown). */
export interface StepResult {
  readonly name: string;
  readonly title: string;
  readonly explain: string;
  readonly expected: string;
  readonly status: StepStatus;
  /** "as expected" when every check passed; else which checks did not. */
  readonly verdict: string;
  readonly summary: string;
  readonly observed: Record<string, Figure>;
  readonly checks: Check[];
  readonly durationMs: number;
  readonly timeline?: TimelineInput;
  readonly reason?: string;
}
