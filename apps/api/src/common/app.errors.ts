import { CodedError } from '@app/errors';

/** Errors raised by the HTTP layer itself; like the libraries' errors, each has a stable code. */
export class RequestInvalidError extends CodedError {
  readonly code = 'REQUEST.INVALID';
}

export class UnauthorizedError extends CodedError {
  readonly code = 'AUTH.UNAUTHORIZED';
  constructor() {
    super('this endpoint needs Authorization: Bearer <admin token>');
  }
}

export class ChaosDisabledError extends CodedError {
  readonly code = 'CHAOS.DISABLED';
  constructor(options: string[]) {
    super(`chaos options (${options.join(', ')}) are refused: this replica runs without CHAOS_ENABLED=true`);
  }
}
