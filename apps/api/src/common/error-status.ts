import type { ErrorCode } from '@app/contract';
import type { CodedError } from '@app/errors';
import { LockAbortedError, LockLostError, LockTimeoutError, LockUnavailableError } from '@app/lock';
import {
  CommitAbortedError,
  CouponNotFoundError,
  DuplicateGrantError,
  GrantNotFoundError,
  HoldCancelledError,
  HoldConfirmedError,
  HoldExpiredError,
  HoldNotFoundError,
  RetriesExhaustedError,
  SoldOutError,
  StaleFenceError,
  StockUnavailableError,
} from '@app/stock';
import { RoomNotAdmittedError, RoomNotFoundError, TicketNotFoundError } from '@app/redis-stock';
import { ChaosDisabledError, RequestInvalidError, UnauthorizedError } from '@app/apps-common';

type ErrorClass = abstract new (...args: never[]) => CodedError;

interface ErrorRow {
  readonly type: ErrorClass;
  readonly status: number;
  /** The public code, when it is not the error's own. */
  readonly code?: ErrorCode;
  /** Worth retrying: the answer carries Retry-After. */
  readonly retry?: true;
}

/**
 * The one place where error classes become HTTP statuses (the libraries know nothing of HTTP). The
 * first row the error is an instance of wins; an error of no row is a 500.
 */
export const ERROR_ROWS: readonly ErrorRow[] = [
  { type: RequestInvalidError, status: 400 },
  { type: UnauthorizedError, status: 401 },
  { type: ChaosDisabledError, status: 403 },
  { type: RoomNotAdmittedError, status: 403 },
  { type: CouponNotFoundError, status: 404 },
  { type: RoomNotFoundError, status: 404 },
  { type: TicketNotFoundError, status: 404 },
  { type: GrantNotFoundError, status: 404 },
  { type: HoldNotFoundError, status: 404 },
  { type: HoldExpiredError, status: 409 },
  { type: HoldCancelledError, status: 409 },
  { type: HoldConfirmedError, status: 409 },
  { type: SoldOutError, status: 409 },
  { type: DuplicateGrantError, status: 409 },
  { type: StaleFenceError, status: 409 },
  { type: LockTimeoutError, status: 429, retry: true },
  // The caller cancelled its own wait (its client went away): nginx's "client closed request".
  { type: LockAbortedError, status: 499 },
  { type: RetriesExhaustedError, status: 429, retry: true },
  { type: LockLostError, status: 503, retry: true },
  { type: CommitAbortedError, status: 503, retry: true },
  // A dependency that is down is one public code, whichever library noticed it.
  { type: LockUnavailableError, status: 503, code: 'DEPENDENCY.UNAVAILABLE', retry: true },
  { type: StockUnavailableError, status: 503, code: 'DEPENDENCY.UNAVAILABLE', retry: true },
];

export interface ErrorAnswer {
  readonly status: number;
  readonly code: string;
  readonly retry: boolean;
}

/** How the API answers a coded error, or undefined when no row knows its class. */
export function answerOf(error: CodedError): ErrorAnswer | undefined {
  const row = ERROR_ROWS.find((r) => error instanceof r.type);
  return row && { status: row.status, code: row.code ?? error.code, retry: row.retry ?? false };
}
