import { Catch } from '@nestjs/common';
import { frameworkRefusal, JsonErrorFilter, SharedError, type JsonErrorAnswer } from '@app/apps-common';
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
  const refused = frameworkRefusal(error);
  if (refused) return answer(refused.code, refused.message);
  return answer('INTERNAL', 'unexpected error');
}
