import type { Grant } from './answers';

/** Every error code the API answers with, and its HTTP status. */
export const ERROR_STATUS = {
  'REQUEST.INVALID': 400,
  'REQUEST.TOO_LARGE': 413,
  'AUTH.UNAUTHORIZED': 401,
  'CHAOS.DISABLED': 403,
  'ROOM.NOT_ADMITTED': 403,
  'ROOM.NOT_FOUND': 404,
  'TICKET.NOT_FOUND': 404,
  'COUPON.NOT_FOUND': 404,
  'ROUTE.NOT_FOUND': 404,
  'STOCK.SOLD_OUT': 409,
  'GRANT.DUPLICATE': 409,
  'GRANT.NOT_FOUND': 404,
  'ORDER.DEAD_LETTERED': 410,
  'HOLD.NOT_FOUND': 404,
  'HOLD.EXPIRED': 409,
  'HOLD.CANCELLED': 409,
  'HOLD.CONFIRMED': 409,
  'FENCE.REJECTED': 409,
  'LOCK.TIMEOUT': 429,
  'LOCK.ABORTED': 499,
  'STOCK.CONTENDED': 429,
  'LOCK.LOST': 503,
  'STOCK.COMMIT_ABORTED': 503,
  'DEPENDENCY.UNAVAILABLE': 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Every error answer's body; GRANT.DUPLICATE also carries the stored grant, ORDER.DEAD_LETTERED
 * the order given up and why.
 */
export interface ErrorBody {
  readonly code: ErrorCode;
  readonly message: string;
  readonly grant?: Grant;
  readonly orderId?: string;
  readonly reason?: string;
  /** ROOM.NOT_ADMITTED: the place of the user's ticket while it waits, 0 when it does not wait. */
  readonly position?: number;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}

/**
 * What a grab may answer under load besides 200, by status: anything else (a 500, a 502 from
 * nginx, a 400 to a well-formed request) is outside the contract.
 */
export const GRAB_ERROR_CODES = [
  'ROOM.NOT_ADMITTED',
  'STOCK.SOLD_OUT',
  'GRANT.DUPLICATE',
  'FENCE.REJECTED',
  'LOCK.TIMEOUT',
  'STOCK.CONTENDED',
  'LOCK.LOST',
  'STOCK.COMMIT_ABORTED',
  'DEPENDENCY.UNAVAILABLE',
] as const satisfies readonly ErrorCode[];

const GRAB_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>(GRAB_ERROR_CODES);

/** True when a well-formed grab's answer is one the contract allows. */
export function isContractGrabAnswer(status: number, code: string | undefined): boolean {
  if (status === 200) return true;
  return isErrorCode(code) && GRAB_ERRORS.has(code) && ERROR_STATUS[code] === status;
}
