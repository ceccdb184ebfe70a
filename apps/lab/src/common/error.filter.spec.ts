import { HttpException, NotFoundException } from '@nestjs/common';
import { ApiUnreachableError } from '@app/contract';
import { describe as describeError } from './error.filter';
import { ChaosDisabledError, RequestInvalidError, UnauthorizedError } from '@app/apps-common';
import { LabBusyError } from './lab.errors';

describe('the lab error filter', () => {
  it('answers 409 LAB.BUSY with what is running', () => {
    const running = { kind: 'load' as const, name: 'none', startedAt: '2026-11-23T00:00:00.000Z' };
    expect(describeError(new LabBusyError(running))).toEqual({
      status: 409,
      body: { code: 'LAB.BUSY', message: expect.stringContaining('"none"') as string, running },
    });
  });

  it('maps its own errors, the API being down, bad JSON and unknown routes', () => {
    expect(describeError(new RequestInvalidError('stock must be …')).status).toBe(400);
    expect(describeError(new UnauthorizedError('needs the admin token'))).toEqual({
      status: 401,
      body: { code: 'AUTH.UNAUTHORIZED', message: 'needs the admin token' },
    });
    expect(describeError(new ChaosDisabledError('a fault needs chaos')).status).toBe(403);
    expect(describeError(new ApiUnreachableError('GET /strategies', { cause: new Error('refused') })).body.code).toBe(
      'DEPENDENCY.UNAVAILABLE',
    );
    expect(describeError(new HttpException('Unexpected end of JSON input', 400)).body.code).toBe('REQUEST.INVALID');
    expect(describeError(new HttpException('Request body is too large', 413)).body.code).toBe('REQUEST.TOO_LARGE');
    expect(describeError(new NotFoundException('Cannot GET /x')).body.code).toBe('ROUTE.NOT_FOUND');
    expect(describeError(new Error('boom'))).toEqual({
      status: 500,
      body: { code: 'INTERNAL', message: 'unexpected error' },
    });
  });
});
