import { Catch, HttpException } from '@nestjs/common';
import { frameworkRefusal, JsonErrorFilter, type JsonErrorAnswer } from '@app/apps-common';
import type { ErrorBody } from '@app/contract';
import { CodedError } from '@app/errors';
import { LockTimeoutError } from '@app/lock';
import { RoomNotAdmittedError } from '@app/redis-stock';
import { DuplicateGrantError } from '@app/stock';
import { answerOf } from './error-status';

// Client-library failures that reach us untranslated still mean "a dependency is down", never a 500.
const CONNECTION_FAILURE =
  /Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET|Command timed out|Reached the max retries|Connection terminated|connect ETIMEDOUT/;

function isConnectionFailure(error: unknown): boolean {
  const e = error as { name?: string; message?: string; code?: string };
  return e?.name === 'MaxRetriesPerRequestError' || CONNECTION_FAILURE.test(`${e?.code ?? ''} ${e?.message ?? ''}`);
}

type Answer = JsonErrorAnswer & {
  body: { code: string; message: string; grant?: ErrorBody['grant']; position?: number };
};

const UNAVAILABLE: Answer = {
  status: 503,
  body: { code: 'DEPENDENCY.UNAVAILABLE', message: 'a dependency (Redis or PostgreSQL) is unavailable' },
  retryAfterMs: 1000,
};
const INTERNAL: Answer = { status: 500, body: { code: 'INTERNAL', message: 'unexpected error' } };

/** Maps every error to `{ code, message }` with the contract's status; an unknown one is a logged 500. */
@Catch()
export class ErrorFilter extends JsonErrorFilter {
  protected answer(error: unknown): Answer {
    return this.describe(error);
  }

  private describe(error: unknown): Answer {
    if (error instanceof CodedError) {
      const known = answerOf(error);
      if (!known) return INTERNAL;
      const grant = error instanceof DuplicateGrantError ? error.grant : undefined;
      const position = error instanceof RoomNotAdmittedError ? { position: error.position } : {};
      const retryAfterMs = error instanceof LockTimeoutError ? (error.holderTtlMs ?? 1000) : 1000;
      return {
        status: known.status,
        body: { code: known.code, message: error.message, ...(grant ? { grant } : {}), ...position },
        retryAfterMs: known.retry ? retryAfterMs : undefined,
      };
    }
    if (isConnectionFailure(error)) return UNAVAILABLE;
    return this.fromFramework(error) ?? INTERNAL;
  }

  /** Errors of Fastify and of Nest itself (unknown routes, Terminus's 503). */
  private fromFramework(error: unknown): Answer | undefined {
    const refused = frameworkRefusal(error);
    if (refused) return { status: refused.status, body: { code: refused.code, message: refused.message } };
    if (!(error instanceof HttpException) || error.getStatus() !== 503) return undefined;
    // Terminus answers 503 with the indicators that are down, each with its reason if it gave one.
    const down = Object.entries((error.getResponse() as { error?: Record<string, { reason?: string }> }).error ?? {});
    const named = down.map(([name, data]) => (data?.reason ? `${name} (${data.reason})` : name));
    return {
      ...UNAVAILABLE,
      body: { code: 'DEPENDENCY.UNAVAILABLE', message: `down: ${named.join(', ') || 'unknown'}` },
    };
  }
}
