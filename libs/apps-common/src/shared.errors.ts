import { CodedError } from '@app/errors';

/**
 * The errors both apps raise: one class per code, answered with the same status by both (400,
 * 401, 403). The message is the thrower's, so each app keeps its own wording.
 */
export abstract class SharedError extends CodedError {
  abstract override readonly code: 'REQUEST.INVALID' | 'AUTH.UNAUTHORIZED' | 'CHAOS.DISABLED';
}

/** A request malformed or out of range. */
export class RequestInvalidError extends SharedError {
  readonly code = 'REQUEST.INVALID';
}

/** No admin token, or not the right one. */
export class UnauthorizedError extends SharedError {
  readonly code = 'AUTH.UNAUTHORIZED';
}

/** Chaos asked of a deployment that runs without it. */
export class ChaosDisabledError extends SharedError {
  readonly code = 'CHAOS.DISABLED';
}
