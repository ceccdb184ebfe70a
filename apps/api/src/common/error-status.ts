/** The one place where error codes become HTTP statuses. */
export const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  'REQUEST.INVALID': 400,
  'REQUEST.TOO_LARGE': 413,
  'AUTH.UNAUTHORIZED': 401,
  'CHAOS.DISABLED': 403,
  'COUPON.NOT_FOUND': 404,
  'ROUTE.NOT_FOUND': 404,
  'STOCK.SOLD_OUT': 409,
  'GRANT.DUPLICATE': 409,
  'GRANT.NOT_FOUND': 404,
  'FENCE.REJECTED': 409,
  'LOCK.TIMEOUT': 429,
  // The caller cancelled its own wait (the client went away): nginx's "client closed request".
  'LOCK.ABORTED': 499,
  'STOCK.CONTENDED': 429,
  'LOCK.LOST': 503,
  'STOCK.COMMIT_ABORTED': 503,
  'DEPENDENCY.UNAVAILABLE': 503,
};

/** Library codes that mean "a dependency is down" are reported as one public code. */
export const PUBLIC_CODE: Readonly<Record<string, string>> = {
  'LOCK.UNAVAILABLE': 'DEPENDENCY.UNAVAILABLE',
  'STOCK.UNAVAILABLE': 'DEPENDENCY.UNAVAILABLE',
};

/** Codes worth retrying: they get a Retry-After header. */
export const RETRYABLE = new Set([
  'LOCK.TIMEOUT',
  'STOCK.CONTENDED',
  'LOCK.LOST',
  'STOCK.COMMIT_ABORTED',
  'DEPENDENCY.UNAVAILABLE',
]);
