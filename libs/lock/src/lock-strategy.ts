import type { LockEventSink } from './lock-events';

/** Per-call settings; every strategy gets both, and ignores what it has no use for. */
export interface LockOptions {
  /** The lock's lease (TTL) in Redis. */
  readonly leaseMs: number;
  /** How long to wait for the lock before LockTimeoutError; 0 makes exactly one attempt. */
  readonly waitMs: number;
  /** Cancels the wait: the waiter leaves at once and `run` rejects with LockAbortedError. */
  readonly signal?: AbortSignal;
}

/** What the critical section sees of the lock it runs under. */
export interface HeldLock {
  readonly strategy: string;
  readonly resource: string;
  /** The value that marks this holder in Redis ('' for the in-process strategies). */
  readonly owner: string;
  /** Aborted once the lock is known lost (the watchdog found it gone): do not commit. */
  readonly signal: AbortSignal;
  /**
   * A monotonically increasing token, for strategies that fence (else undefined), drawn by the
   * script that gave this holder the lock; the store checks it at the read and at the write it guards.
   */
  readonly fenceToken?: Promise<number>;
}

/**
 * One way to guard a critical section. `run` acquires (waiting up to waitMs), calls `critical`,
 * and releases in all cases. It throws LockTimeoutError when the lock was not had in time.
 */
export interface LockStrategy {
  readonly name: string;
  run<T>(resource: string, options: LockOptions, critical: (lock: HeldLock) => Promise<T>): Promise<T>;
}
export const LockStrategy = Symbol('LockStrategy');

/** What every strategy is built with. */
export interface LockStrategyDeps {
  readonly events: LockEventSink;
}
