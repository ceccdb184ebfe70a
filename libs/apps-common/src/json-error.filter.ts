import { Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';

/** The part of Fastify's reply an error answer uses. */
interface HttpReply {
  readonly sent: boolean;
  readonly raw: { readonly headersSent: boolean };
  header(name: string, value: string): unknown;
  code(status: number): { send(body: unknown): unknown };
}

/** An error as the app answers it: the status, the JSON body, and Retry-After when worth retrying. */
export interface JsonErrorAnswer {
  readonly status: number;
  readonly body: { readonly code: string; readonly message: string } & Record<string, unknown>;
  readonly retryAfterMs?: number;
}

/** The stack of an error and of every cause under it: what a 500 needs to be understood from the log. */
export function withCauses(error: unknown): string {
  const lines: string[] = [];
  let e: unknown = error;
  for (let depth = 0; depth < 5 && e !== undefined; depth++) {
    const text = e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : JSON.stringify(e);
    lines.push((depth ? 'caused by: ' : '') + text);
    e = e instanceof Error ? e.cause : undefined;
  }
  return lines.join('\n');
}

/**
 * The shell of both apps' exception filters: each app says how it answers an error; this writes
 * the answer, and logs with its causes every server fault (a 5xx other than 503, which only says
 * a dependency is down). An answer already started (a stream) reports its own errors.
 */
export abstract class JsonErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  protected abstract answer(error: unknown): JsonErrorAnswer;

  catch(error: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<HttpReply>();
    if (reply.sent || reply.raw.headersSent) return;
    const { status, body, retryAfterMs } = this.answer(error);
    if (status >= 500 && status !== 503) this.logger.error(withCauses(error));
    if (retryAfterMs !== undefined) reply.header('Retry-After', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
    reply.code(status).send(body);
  }
}
