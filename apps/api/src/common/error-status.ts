import type { ErrorCode } from '@app/contract';
import type { CodedError } from '@app/errors';
import * as lock from '@app/lock';
import * as stock from '@app/stock';
import * as room from '@app/redis-stock';
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

/** A row per class, all answered with `status`. */
const rows = (status: number, types: readonly ErrorClass[], extra: Pick<ErrorRow, 'code' | 'retry'> = {}) =>
  types.map((type): ErrorRow => ({ type, status, ...extra }));

/**
 * The one place where error classes become HTTP statuses (the libraries know nothing of HTTP). The
 * first row the error is an instance of wins; an error of no row is a 500.
 */
export const ERROR_ROWS: readonly ErrorRow[] = [
  ...rows(400, [RequestInvalidError]),
  ...rows(401, [UnauthorizedError]),
  ...rows(403, [ChaosDisabledError, room.RoomNotAdmittedError]),
  ...rows(404, [stock.CouponNotFoundError, room.RoomNotFoundError, room.TicketNotFoundError]),
  ...rows(404, [stock.GrantNotFoundError, stock.HoldNotFoundError]),
  ...rows(409, [stock.HoldExpiredError, stock.HoldCancelledError, stock.HoldConfirmedError]),
  ...rows(409, [stock.SoldOutError, stock.DuplicateGrantError, stock.StaleFenceError]),
  ...rows(429, [lock.LockTimeoutError, stock.RetriesExhaustedError], { retry: true }),
  // The caller cancelled its own wait (its client went away): nginx's "client closed request".
  ...rows(499, [lock.LockAbortedError]),
  ...rows(503, [lock.LockLostError, stock.CommitAbortedError], { retry: true }),
  // A dependency that is down is one public code, whichever library noticed it.
  ...rows(503, [lock.LockUnavailableError, stock.StockUnavailableError], {
    code: 'DEPENDENCY.UNAVAILABLE',
    retry: true,
  }),
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
