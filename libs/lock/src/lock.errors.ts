import { CodedError } from '@app/errors';

/** Errors of the lock library: each has a stable code; the app maps classes to HTTP. */
export abstract class LockError extends CodedError {
  constructor(
    message: string,
    readonly resource: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The lock was not had within the wait budget. */
export class LockTimeoutError extends LockError {
  readonly code = 'LOCK.TIMEOUT';
  constructor(
    resource: string,
    readonly waitedMs: number,
    /** How long the current holder still has, when known: a fair Retry-After. */
    readonly holderTtlMs?: number,
  ) {
    super(`lock on ${resource} not acquired within ${waitedMs} ms`, resource);
  }
}

/** The caller's signal cancelled the wait: the waiter left its line (and its front the queue) and never held the lock. */
export class LockAbortedError extends LockError {
  readonly code = 'LOCK.ABORTED';
  constructor(resource: string, options?: { cause?: unknown }) {
    super(`waiting for the lock on ${resource} was cancelled`, resource, options);
  }
}

/** The lock expired or was taken while the critical section ran. */
export class LockLostError extends LockError {
  readonly code = 'LOCK.LOST';
  constructor(resource: string, options?: { cause?: unknown }) {
    super(`lock on ${resource} was lost while held`, resource, options);
  }
}

/** The lock's backing store (Redis) did not answer. */
export class LockUnavailableError extends LockError {
  readonly code = 'LOCK.UNAVAILABLE';
  constructor(resource: string, options?: { cause?: unknown }) {
    super(`lock store unavailable for ${resource}`, resource, options);
  }
}
