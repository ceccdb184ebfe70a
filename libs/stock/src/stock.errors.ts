import type { Grant } from '@app/contract';
import { CodedError } from '@app/errors';

/** Errors of the stock library: each has a stable code; the app maps classes to HTTP. */
export abstract class StockError extends CodedError {}

export class CouponNotFoundError extends StockError {
  readonly code = 'COUPON.NOT_FOUND';
  constructor(readonly couponId: number) {
    super(`coupon ${couponId} does not exist`);
  }
}

export class SoldOutError extends StockError {
  readonly code = 'STOCK.SOLD_OUT';
  constructor(readonly couponId: number) {
    // Most answers of a flash sale are this one, an outcome rather than a fault: capturing a
    // stack trace for each would cost more than answering it.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`coupon ${couponId} is sold out`);
    Error.stackTraceLimit = limit;
  }
}

export class DuplicateGrantError extends StockError {
  readonly code = 'GRANT.DUPLICATE';
  /** The grant the user already holds, when it was looked up (the answer carries it). */
  grant?: Grant;
  constructor(
    readonly couponId: number,
    readonly userId: string,
  ) {
    super(`user ${userId} already holds coupon ${couponId}`);
  }
}

/** The user holds no grant of the coupon. */
export class GrantNotFoundError extends StockError {
  readonly code = 'GRANT.NOT_FOUND';
  constructor(
    readonly couponId: number,
    readonly userId: string,
  ) {
    super(`user ${userId} holds no grant of coupon ${couponId}`);
  }
}

/** The lock guarding the section was lost before the write: nothing was written. */
export class CommitAbortedError extends StockError {
  readonly code = 'STOCK.COMMIT_ABORTED';
  constructor(options?: { cause?: unknown }) {
    super('the critical section was told its lock is lost; the write was not made', options);
  }
}

/** The row accepted a newer fencing token already: this holder is stale. */
export class StaleFenceError extends StockError {
  readonly code = 'FENCE.REJECTED';
  constructor(readonly token: number) {
    super(`fencing token ${token} is older than the one the stock row accepted`);
  }
}

/** Optimistic writes kept losing to concurrent ones. */
export class RetriesExhaustedError extends StockError {
  readonly code = 'STOCK.CONTENDED';
  constructor(readonly attempts: number) {
    super(`gave up after ${attempts} optimistic attempts`);
  }
}

/** A stock store (PostgreSQL, or Redis for the reserved counter) did not answer. */
export class StockUnavailableError extends StockError {
  readonly code = 'STOCK.UNAVAILABLE';
  constructor(options?: { cause?: unknown }) {
    super('a stock store is unavailable', options);
  }
}

/** No such hold of this coupon (or not this buyer's). */
export class HoldNotFoundError extends StockError {
  readonly code = 'HOLD.NOT_FOUND';
  constructor(
    readonly couponId: number,
    readonly holdId: string,
  ) {
    super(`coupon ${couponId} has no hold ${holdId}`);
  }
}

/** The hold's deadline passed (database clock): its unit went, or is going, back to the stock. */
export class HoldExpiredError extends StockError {
  readonly code = 'HOLD.EXPIRED';
  constructor(readonly holdId: string) {
    super(`hold ${holdId} expired`);
  }
}

/** The hold was cancelled: its unit went back to the stock. */
export class HoldCancelledError extends StockError {
  readonly code = 'HOLD.CANCELLED';
  constructor(readonly holdId: string) {
    super(`hold ${holdId} was cancelled`);
  }
}

/** The hold was confirmed: it is a grant now, and cannot be cancelled. */
export class HoldConfirmedError extends StockError {
  readonly code = 'HOLD.CONFIRMED';
  constructor(readonly holdId: string) {
    super(`hold ${holdId} was confirmed`);
  }
}
