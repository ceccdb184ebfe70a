import type { Hold } from '../held-locks';
import type { LockRuntime } from '../lock-runtime';
import type { LockReports } from './lock-reports';
import type { StrategyVerbs } from './lock-verbs';

/** What serves a Redis strategy's calls: its process's runtime, its verbs and its reports. */
export interface StrategyParts {
  readonly name: string;
  readonly runtime: LockRuntime;
  readonly redis: StrategyVerbs;
  readonly reports: LockReports;
  /** The strategy's step before a release (the watchdog stops renewing). */
  beforeRelease(hold: Hold): Promise<void>;
}
