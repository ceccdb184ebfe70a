import type { LockKeys } from '../lock-keys';

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
