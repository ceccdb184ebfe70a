import { Logger, NotFoundException, type ArgumentsHost } from '@nestjs/common';
import { ERROR_STATUS, type ErrorCode } from '@app/contract';
import { CodedError } from '@app/errors';
import { LockAbortedError, LockLostError, LockTimeoutError, LockUnavailableError } from '@app/lock';
import {
  CommitAbortedError,
  CouponNotFoundError,
  DuplicateGrantError,
  GrantNotFoundError,
  RetriesExhaustedError,
  SoldOutError,
  StaleFenceError,
  StockUnavailableError,
} from '@app/stock';
import { ChaosDisabledError, RequestInvalidError, UnauthorizedError } from './app.errors';
import { ERROR_ROWS } from './error-status';
import { ErrorFilter } from './error.filter';

function answer(error: unknown): { status: number; body: { code?: string }; headers: Record<string, string> } {
  const out = { status: 0, body: {} as { code?: string }, headers: {} as Record<string, string> };
  const res = {
    headersSent: false,
    setHeader: (name: string, value: string) => {
      out.headers[name] = value;
    },
    status: (code: number) => {
      out.status = code;
      return {
        json: (body: { code?: string }) => {
          out.body = body;
        },
      };
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => res }) } as unknown as ArgumentsHost;
  new ErrorFilter().catch(error, host);
  return out;
}

// One of every class the table knows, with the public code the contract gives it.
const SAMPLES: [CodedError, ErrorCode][] = [
  [new RequestInvalidError('bad'), 'REQUEST.INVALID'],
  [new UnauthorizedError(), 'AUTH.UNAUTHORIZED'],
  [new ChaosDisabledError(['pauseMs']), 'CHAOS.DISABLED'],
  [new CouponNotFoundError(1), 'COUPON.NOT_FOUND'],
  [new GrantNotFoundError(1, 'u'), 'GRANT.NOT_FOUND'],
  [new SoldOutError(1), 'STOCK.SOLD_OUT'],
  [new DuplicateGrantError(1, 'u'), 'GRANT.DUPLICATE'],
  [new StaleFenceError(3), 'FENCE.REJECTED'],
  [new LockTimeoutError('coupon:1', 10), 'LOCK.TIMEOUT'],
  [new LockAbortedError('coupon:1'), 'LOCK.ABORTED'],
  [new RetriesExhaustedError(5), 'STOCK.CONTENDED'],
  [new LockLostError('coupon:1'), 'LOCK.LOST'],
  [new CommitAbortedError(), 'STOCK.COMMIT_ABORTED'],
  [new LockUnavailableError('coupon:1'), 'DEPENDENCY.UNAVAILABLE'],
  [new StockUnavailableError(), 'DEPENDENCY.UNAVAILABLE'],
];

describe('ErrorFilter', () => {
  it('has a sample of every row of the table', () => {
    for (const row of ERROR_ROWS) expect(SAMPLES.some(([e]) => e.constructor === row.type)).toBe(true);
  });

  it.each(SAMPLES.map(([error, code]) => [error.name, error, code] as const))(
    'answers %s by its class with the contract status of its public code',
    (_name, error, code) => {
      const res = answer(error);
      expect(res.body).toEqual({ code, message: error.message });
      expect(res.status).toBe(ERROR_STATUS[code]);
    },
  );

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
