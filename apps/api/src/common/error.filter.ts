import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import { PUBLIC_CODE, RETRYABLE, STATUS_BY_CODE } from './error-status';

// Client-library failures that reach us untyped still mean "a dependency is down", never a 500.
const CONNECTION_FAILURE =
  /Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET|Command timed out|Reached the max retries|Connection terminated|connect ETIMEDOUT/;

function isConnectionFailure(error: unknown): boolean {
  const e = error as { name?: string; message?: string; code?: string };
  return e?.name === 'MaxRetriesPerRequestError' || CONNECTION_FAILURE.test(`${e?.code ?? ''} ${e?.message ?? ''}`);
}

interface HttpResponse {
  headersSent: boolean;
  setHeader(name: string, value: string): void;
  status(code: number): { json(body: unknown): void };
}

interface ErrorBody {
  code: string;
  message: string;
  grant?: unknown;
}

/** Maps every error to `{ code, message }` with the contract's status; nothing leaks as a bare 500. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(error: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<HttpResponse>();
    if (res.headersSent) return;
    const { status, body, retryAfterMs } = this.describe(error);
    if (status >= 500 && status !== 503) this.logger.error(error instanceof Error ? error.stack : String(error));
    if (retryAfterMs !== undefined) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
    res.status(status).json(body);
  }

  private describe(error: unknown): { status: number; body: ErrorBody; retryAfterMs?: number } {
    const coded = error as { code?: unknown; message?: string; holderTtlMs?: number; grant?: unknown };
    if (typeof coded?.code === 'string' && coded.code.includes('.')) {
      const code = PUBLIC_CODE[coded.code] ?? coded.code;
      const status = STATUS_BY_CODE[code];
      if (status) {
        const retryAfterMs = RETRYABLE.has(code) ? (coded.holderTtlMs ?? 1000) : undefined;
        const body = { code, message: coded.message ?? code, ...(coded.grant ? { grant: coded.grant } : {}) };
        return { status, body, retryAfterMs };
      }
    }
    if (isConnectionFailure(error)) {
      return {
        status: 503,
        body: { code: 'DEPENDENCY.UNAVAILABLE', message: 'a dependency (Redis or PostgreSQL) is unavailable' },
        retryAfterMs: 1000,
      };
    }
    // body-parser's errors (malformed or oversized JSON) carry `type` and `status`.
    const parser = error as { type?: string; status?: number };
    if (parser?.type === 'entity.parse.failed')
      return { status: 400, body: { code: 'REQUEST.INVALID', message: 'the body is not valid JSON' } };
    if (parser?.type === 'entity.too.large')
      return { status: 413, body: { code: 'REQUEST.TOO_LARGE', message: 'the body is too large' } };
    if (parser?.status && parser.status >= 400 && parser.status < 500 && parser.type) {
      return { status: parser.status, body: { code: 'REQUEST.INVALID', message: String((error as Error).message) } };
    }
    if (error instanceof HttpException) {
      const status = error.getStatus();
      if (status === 404) return { status, body: { code: 'ROUTE.NOT_FOUND', message: error.message } };
      if (status === 503) {
        // Terminus answers 503 with the indicators that are down.
        const down = Object.keys((error.getResponse() as { error?: object }).error ?? {});
        return {
          status,
          body: { code: 'DEPENDENCY.UNAVAILABLE', message: `down: ${down.join(', ') || 'unknown'}` },
          retryAfterMs: 1000,
        };
      }
      return { status, body: { code: status < 500 ? 'REQUEST.INVALID' : 'INTERNAL', message: error.message } };
    }
    return { status: 500, body: { code: 'INTERNAL', message: 'unexpected error' } };
  }
}
