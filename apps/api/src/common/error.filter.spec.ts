import type { ArgumentsHost } from '@nestjs/common';
import { ErrorFilter } from './error.filter';

function answer(error: unknown): { status: number; body: unknown; headers: Record<string, string> } {
  const out = { status: 0, body: undefined as unknown, headers: {} as Record<string, string> };
  const res = {
    headersSent: false,
    setHeader: (name: string, value: string) => {
      out.headers[name] = value;
    },
    status: (code: number) => {
      out.status = code;
      return {
        json: (body: unknown) => {
          out.body = body;
        },
      };
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => res }) } as unknown as ArgumentsHost;
  new ErrorFilter().catch(error, host);
  return out;
}

describe('ErrorFilter', () => {
  it('answers 503 DEPENDENCY.UNAVAILABLE when a connection died under a request', () => {
    const res = answer(new Error('Connection terminated unexpectedly'));
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'DEPENDENCY.UNAVAILABLE' });
    expect(res.headers['Retry-After']).toBe('1');
  });

  it('still answers an unknown error with 500 INTERNAL', () => {
    expect(answer(new Error('something else'))).toMatchObject({ status: 500, body: { code: 'INTERNAL' } });
  });
});
