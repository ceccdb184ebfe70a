import type { CrashPoint, SchedStep } from '@app/contract';
import type { WorkOptions } from './section-work';

export interface GrabOptions extends WorkOptions {
  readonly strategy?: string;
  readonly leaseMs?: number;
  readonly waitMs?: number;
  /** Chaos: SIGKILL at this point of the grab. */
  readonly crash?: CrashPoint;
  readonly nested?: boolean;
  /** Chaos: the gate id of a stepped grab (the lab's scheduler), held at each named step. */
  readonly step?: string;
  /** Set by the runner for a stepped grab: waits at the named step until the lab steps it. */
  readonly checkpoint?: (step: SchedStep) => Promise<void>;
  /** Aborted when the client goes away: a grab waiting for its lock leaves the wait. */
  readonly signal?: AbortSignal;
}
