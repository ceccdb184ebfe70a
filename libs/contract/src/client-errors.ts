import { CodedError } from '@app/errors';

/** The API answered with an error status. */
export class ApiError extends CodedError {
  readonly code = 'CLIENT.API';
  constructor(
    readonly request: string,
    readonly status: number,
    /** The answer's own error code (`COUPON.NOT_FOUND`, …), when it had one. */
    readonly errorCode: string | undefined,
    readonly body: string,
  ) {
    super(`${request} answered ${status}${errorCode ? ` ${errorCode}` : ''}: ${body.slice(0, 300)}`);
  }
}

/** No answer at all: refused, reset, or timed out. */
export class ApiUnreachableError extends CodedError {
  readonly code = 'CLIENT.UNREACHABLE';
  constructor(request: string, options: { cause: unknown }) {
    super(`${request} got no answer: ${(options.cause as Error)?.message ?? String(options.cause)}`, options);
  }
}
