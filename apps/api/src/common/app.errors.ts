/** Errors raised by the HTTP layer itself; like the libraries' errors, each has a stable code. */
export class RequestInvalidError extends Error {
  override readonly name = 'RequestInvalidError';
  readonly code = 'REQUEST.INVALID';
}

export class UnauthorizedError extends Error {
  override readonly name = 'UnauthorizedError';
  readonly code = 'AUTH.UNAUTHORIZED';
  constructor() {
    super('this endpoint needs Authorization: Bearer <admin token>');
  }
}

export class ChaosDisabledError extends Error {
  override readonly name = 'ChaosDisabledError';
  readonly code = 'CHAOS.DISABLED';
  constructor(options: string[]) {
    super(`chaos options (${options.join(', ')}) are refused: this replica runs without CHAOS_ENABLED=true`);
  }
}
