import type { Hold } from '../held-locks';
import type { LockKeys } from '../lock-keys';
import type { LockRuntime } from '../lock-runtime';
import type { LockReports } from './lock-reports';
import type { StrategyVerbs } from './lock-verbs';

/** One `run` call, as its wait, hand-off and release see it: all fixed when the call began. */
export interface LockCall {
  readonly keys: LockKeys;
  readonly owner: string;
  readonly leaseMs: number;
  /** performance.now() when `run` was called. */
  readonly started: number;
  /** performance.now() at which the wait budget ends: the one bound of every wait of the call. */
  readonly deadline: number;
  readonly signal?: AbortSignal;
}

/** What serves a Redis strategy's calls: its process's runtime, its verbs and its reports. */
export interface StrategyParts {
  readonly name: string;
  readonly runtime: LockRuntime;
  readonly redis: StrategyVerbs;
  readonly reports: LockReports;
  /** The strategy's step before a release (the watchdog stops renewing). */
  beforeRelease(hold: Hold): Promise<void>;
}
