import {
  HttpException,
  Logger,
  NotFoundException,
  ServiceUnavailableException,
  type ArgumentsHost,
} from '@nestjs/common';
import { ERROR_STATUS, isErrorCode } from '@app/contract';
import { CodedError } from '@app/errors';
import { LockTimeoutError, LockUnavailableError } from '@app/lock';
import { DuplicateGrantError, SoldOutError, StockUnavailableError } from '@app/stock';
import { ERROR_ROWS } from './error-status';
import { ErrorFilter } from './error.filter';

function answer(error: unknown): { status: number; body: { code?: string }; headers: Record<string, string> } {
  const out = { status: 0, body: {} as { code?: string }, headers: {} as Record<string, string> };
  const res = {
    sent: false,
    raw: { headersSent: false },
    header: (name: string, value: string) => {
      out.headers[name] = value;
    },
    code: (code: number) => {
      out.status = code;
      return {
        send: (body: { code?: string }) => {
          out.body = body;
        },
      };
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => res }) } as unknown as ArgumentsHost;
  new ErrorFilter().catch(error, host);
  return out;
}

// One sample of every row, read from the table rather than restated: the constructors only word
// the message, so one built without its arguments answers as any other of its class.
const SAMPLES = ERROR_ROWS.map((row) => ({ row, error: new (row.type as unknown as new () => CodedError)() }));

describe('ErrorFilter', () => {
  it.each(SAMPLES.map(({ row, error }) => [error.name, row, error] as const))(
    'answers %s with its row (no earlier row shadows it), at the status the contract gives its public code',
    (_name, row, error) => {
      const res = answer(error);
      expect(res.status).toBe(row.status);
      expect([undefined, 'DEPENDENCY.UNAVAILABLE']).toContain(row.code); // a row renames no other code
      expect(res.body).toEqual({ code: row.code ?? error.code, message: error.message });
      // The contract's table is the independent check: a row whose status strays from it fails here.
      const code = res.body.code;
      expect(isErrorCode(code) && ERROR_STATUS[code]).toBe(res.status);
      expect(res.headers['Retry-After'] !== undefined).toBe(row.retry === true);
    },
  );

  it('answers a dependency that is down with one public code, whichever library noticed it', () => {
    for (const error of [new LockUnavailableError('coupon:1'), new StockUnavailableError()])
      expect(answer(error)).toMatchObject({ status: 503, body: { code: 'DEPENDENCY.UNAVAILABLE' } });
  });

  it('gives Retry-After from the holder TTL when known, and carries the stored grant of a duplicate', () => {
    expect(answer(new LockTimeoutError('coupon:1', 10, 2500)).headers['Retry-After']).toBe('3');
    expect(answer(new SoldOutError(1)).headers['Retry-After']).toBeUndefined();
    const duplicate = new DuplicateGrantError(1, 'u');
    duplicate.grant = { userId: 'u' } as DuplicateGrantError['grant'];
    expect(answer(duplicate).body).toMatchObject({ code: 'GRANT.DUPLICATE', grant: { userId: 'u' } });
  });

  it('answers 503 DEPENDENCY.UNAVAILABLE when a connection died under a request', () => {
    const res = answer(new Error('Connection terminated unexpectedly'));
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'DEPENDENCY.UNAVAILABLE' });
    expect(res.headers['Retry-After']).toBe('1');
  });

  it('names each health indicator that is down in the 503, with the reason it gave', () => {
    const health = new ServiceUnavailableException({
      status: 'error',
      error: { postgres: { status: 'down' }, redis: { status: 'down', reason: '0 of 1 replica(s) online' } },
    });
    expect(answer(health)).toMatchObject({
      status: 503,
      body: { code: 'DEPENDENCY.UNAVAILABLE', message: 'down: postgres, redis (0 of 1 replica(s) online)' },
    });
  });

  it("answers Fastify's refusals of a body (as Nest hands them on) in the contract's terms", () => {
    const refusal = (message: string, status: number) => answer(new HttpException(message, status));
    expect(refusal('Request body is too large', 413)).toMatchObject({
      status: 413,
      body: { code: 'REQUEST.TOO_LARGE' },
    });
    expect(refusal('Unexpected end of JSON input', 400)).toMatchObject({
      status: 400,
      body: { code: 'REQUEST.INVALID', message: 'the body is not valid JSON' },
    });
    expect(refusal("Unsupported Media Type: 'application/x-www-form-urlencoded'", 415)).toMatchObject({
      status: 400,
      body: { code: 'REQUEST.INVALID' },
    });
  });

  it('answers an unknown route with 404 ROUTE.NOT_FOUND', () => {
    expect(answer(new NotFoundException('Cannot GET /x'))).toMatchObject({
      status: 404,
      body: { code: 'ROUTE.NOT_FOUND' },
    });
  });

  it('answers an unknown error, or a coded one no row knows, with 500 INTERNAL and logs its cause', () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    class StrayError extends CodedError {
      readonly code = 'STRAY.ERROR';
    }
    expect(answer(new StrayError('stray'))).toMatchObject({ status: 500, body: { code: 'INTERNAL' } });
    const res = answer(new Error('something else', { cause: new Error('the root of it') }));
    expect(res).toMatchObject({ status: 500, body: { code: 'INTERNAL', message: 'unexpected error' } });
    expect(logged).toHaveBeenLastCalledWith(
      expect.stringMatching(/something else[\s\S]*caused by: Error: the root of it/),
    );
    logged.mockRestore();
  });
});
