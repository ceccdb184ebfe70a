import type { CrashPoint } from '@app/contract';
import type { WorkOptions } from './section-work';

export interface GrabOptions extends WorkOptions {
  readonly strategy?: string;
  readonly leaseMs?: number;
  readonly waitMs?: number;
  /** Chaos: SIGKILL at this point of the grab. */
  readonly crash?: CrashPoint;
  readonly nested?: boolean;
  /** Aborted when the client goes away: a grab waiting for its lock leaves the wait. */
  readonly signal?: AbortSignal;
}
