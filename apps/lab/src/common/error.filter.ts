import { Catch, HttpException } from '@nestjs/common';
import { JsonErrorFilter, SharedError, type JsonErrorAnswer } from '@app/apps-common';
import { ApiError, ApiUnreachableError, LAB_ERROR_STATUS, type LabErrorCode } from '@app/contract';
import { LabError } from './lab.errors';

type Described = JsonErrorAnswer & { body: { code: LabErrorCode; message: string } & Record<string, unknown> };

/** Every error as `{ code, message, … }` with its status; nothing leaks as a bare 500. */
@Catch()
export class LabErrorFilter extends JsonErrorFilter {
  protected answer(error: unknown): Described {
    return describe(error);
  }
}

export function describe(error: unknown): Described {
  const answer = (code: LabErrorCode, message: string, extra: Record<string, unknown> = {}): Described => ({
    status: LAB_ERROR_STATUS[code],
    body: { code, message, ...extra },
  });
  if (error instanceof LabError) return answer(error.code, error.message, error.details());
  if (error instanceof SharedError) return answer(error.code, error.message);
  if (error instanceof ApiUnreachableError)
    return answer('DEPENDENCY.UNAVAILABLE', `the API did not answer: ${error.message}`);
  if (error instanceof ApiError) return answer('DEPENDENCY.UNAVAILABLE', `the API refused: ${error.message}`);
  // body-parser's errors carry `type`.
  const parser = error as { type?: string; status?: number; message?: string };
  if (parser?.type === 'entity.parse.failed') return answer('REQUEST.INVALID', 'the body is not valid JSON');
  if (parser?.type === 'entity.too.large') return answer('REQUEST.TOO_LARGE', 'the body is too large');
  if (parser?.type && parser.status && parser.status < 500) return answer('REQUEST.INVALID', String(parser.message));
  if (error instanceof HttpException && error.getStatus() === 404) return answer('ROUTE.NOT_FOUND', error.message);
  if (error instanceof HttpException && error.getStatus() < 500) return answer('REQUEST.INVALID', error.message);
  return answer('INTERNAL', 'unexpected error');
}
