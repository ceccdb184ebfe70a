import { HttpException } from '@nestjs/common';

/** A request the framework refused before any handler ran, in the contract's terms. */
export interface FrameworkRefusal {
  readonly status: number;
  readonly code: 'REQUEST.INVALID' | 'REQUEST.TOO_LARGE' | 'ROUTE.NOT_FOUND';
  readonly message: string;
}

/**
 * Fastify's refusals (body over the limit, malformed JSON, a body that is not JSON) and Nest's
 * unknown route, which Nest hands to the filters as HttpExceptions with Fastify's status. A body
 * of another media type is a bad request, as it was when only JSON bodies were read.
 */
export function frameworkRefusal(error: unknown): FrameworkRefusal | undefined {
  if (!(error instanceof HttpException)) return undefined;
  const status = error.getStatus();
  if (status === 404) return { status, code: 'ROUTE.NOT_FOUND', message: error.message };
  if (status === 413) return { status, code: 'REQUEST.TOO_LARGE', message: 'the body is too large' };
  if (status === 415) return { status: 400, code: 'REQUEST.INVALID', message: 'the body must be JSON' };
  if (status === 400 && /JSON/i.test(error.message))
    return { status, code: 'REQUEST.INVALID', message: 'the body is not valid JSON' };
  if (status < 500) return { status, code: 'REQUEST.INVALID', message: error.message };
  return undefined;
}
