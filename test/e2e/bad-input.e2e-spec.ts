import { testPort } from '../ports';
import { audit } from './support/grabs';
import { startChaosOffReplica, type ExtraReplica } from './support/extra-replica';
import { admin, createCoupon, http, testStack, type ErrorBody, type StackInfo } from './support/stack';

jest.setTimeout(120_000);

interface Hostile {
  readonly name: string;
  readonly method?: string;
  /** Path after the coupon base; `:id` is the test coupon. */
  readonly path?: string;
  readonly query?: string;
  /** An object goes as JSON; a string goes as is (malformed bodies). */
  readonly body?: unknown;
  readonly headers?: (info: StackInfo) => Record<string, string>;
  readonly status: number;
  readonly code: string;
}

const user = { userId: 'hostile-user' };
const HOSTILE: Hostile[] = [
  { name: 'malformed JSON', body: '{"userId": "a",', status: 400, code: 'REQUEST.INVALID' },
  { name: 'JSON array body', body: '[1,2,3]', status: 400, code: 'REQUEST.INVALID' },
  { name: 'JSON string body', body: '"userId"', status: 400, code: 'REQUEST.INVALID' },
  {
    name: "body over the app's cap (20 KiB)",
    body: JSON.stringify({ userId: 'x'.repeat(20_000) }),
    status: 413,
    code: 'REQUEST.TOO_LARGE',
  },
  {
    name: "body over nginx's cap (1 MiB)",
    body: JSON.stringify({ userId: 'x'.repeat(1_048_576) }),
    status: 413,
    code: 'REQUEST.TOO_LARGE',
  },
  { name: 'missing userId', body: {}, status: 400, code: 'REQUEST.INVALID' },
  { name: 'userId of 65 characters', body: { userId: 'a'.repeat(65) }, status: 400, code: 'REQUEST.INVALID' },
  { name: 'userId as a number', body: { userId: 42 }, status: 400, code: 'REQUEST.INVALID' },
  { name: 'userId as an object', body: { userId: { $gt: '' } }, status: 400, code: 'REQUEST.INVALID' },
  { name: 'userId with Unicode', body: { userId: 'usér-ü' }, status: 400, code: 'REQUEST.INVALID' },
  { name: 'userId with a control character', body: { userId: 'a\u0000b' }, status: 400, code: 'REQUEST.INVALID' },
  { name: 'userId with SQL', body: { userId: "x'; DROP TABLE grants; --" }, status: 400, code: 'REQUEST.INVALID' },
  {
    name: 'userId with Lua/Redis metacharacters',
    body: { userId: 'a\r\nFLUSHALL\r\n' },
    status: 400,
    code: 'REQUEST.INVALID',
  },
  { name: 'unexpected body field', body: { ...user, stock: 0 }, status: 400, code: 'REQUEST.INVALID' },
  { name: 'unknown strategy', query: 'strategy=quantum', body: user, status: 400, code: 'REQUEST.INVALID' },
  { name: 'negative workMs', query: 'workMs=-1', body: user, status: 400, code: 'REQUEST.INVALID' },
  { name: 'huge workMs', query: 'workMs=99999999999', body: user, status: 400, code: 'REQUEST.INVALID' },
  { name: 'non-numeric workMs', query: 'workMs=ten', body: user, status: 400, code: 'REQUEST.INVALID' },
  { name: 'leaseMs below range', query: 'leaseMs=5', body: user, status: 400, code: 'REQUEST.INVALID' },
  { name: 'crash with a bad value', query: 'crash=yes', body: user, status: 400, code: 'REQUEST.INVALID' },
  { name: 'unknown query option', query: 'dropTables=1', body: user, status: 400, code: 'REQUEST.INVALID' },
  { name: 'negative coupon id', path: '/coupons/-1/grab', body: user, status: 400, code: 'REQUEST.INVALID' },
  {
    name: 'huge coupon id',
    path: '/coupons/99999999999999999999/grab',
    body: user,
    status: 400,
    code: 'REQUEST.INVALID',
  },
  { name: 'non-numeric coupon id', path: "/coupons/1'OR'1'='1/grab", body: user, status: 400, code: 'REQUEST.INVALID' },
  { name: 'unknown coupon', path: '/coupons/2147483647/grab', body: user, status: 404, code: 'COUPON.NOT_FOUND' },
  {
    name: 'reset without a token',
    path: '/coupons/:id/reset',
    body: { stock: 1 },
    status: 401,
    code: 'AUTH.UNAUTHORIZED',
  },
  {
    name: 'reset with a wrong token',
    path: '/coupons/:id/reset',
    body: { stock: 1 },
    headers: () => ({ authorization: 'Bearer not-the-token' }),
    status: 401,
    code: 'AUTH.UNAUTHORIZED',
  },
  { name: 'create without a token', path: '/coupons', body: { stock: 1 }, status: 401, code: 'AUTH.UNAUTHORIZED' },
  {
    name: 'reset with a negative stock',
    path: '/coupons/:id/reset',
    body: { stock: -5 },
    headers: admin,
    status: 400,
    code: 'REQUEST.INVALID',
  },
  {
    name: 'create with a fractional stock',
    path: '/coupons',
    body: { stock: 1.5 },
    headers: admin,
    status: 400,
    code: 'REQUEST.INVALID',
  },
  {
    name: 'create with 65 segments',
    path: '/coupons',
    body: { stock: 10, segments: 65 },
    headers: admin,
    status: 400,
    code: 'REQUEST.INVALID',
  },
];

describe("hostile requests get the contract's 4xx and change nothing", () => {
  let info: StackInfo;
  let couponId: number;

  beforeAll(async () => {
    info = testStack();
    couponId = Number((await createCoupon(info, 10)).id);
    const first = await http('POST', `${info.nginxUrl}/coupons/${couponId}/grab?strategy=watchdog`, {
      userId: 'first-buyer',
    });
    expect(first.status).toBe(200);
  });

  it.each(HOSTILE)('$name → $status $code', async (row) => {
    const before = await audit(info, couponId);
    const path = (row.path ?? '/coupons/:id/grab').replace(':id', String(couponId));
    const res = await http<ErrorBody>(
      row.method ?? 'POST',
      `${info.nginxUrl}${path}${row.query ? `?${row.query}` : ''}`,
      row.body,
      row.headers?.(info) ?? {},
    );
    expect({ status: res.status, code: res.body?.code }).toEqual({ status: row.status, code: row.code });
    expect(typeof res.body.message).toBe('string');
    expect(res.headers.get('x-replica')).toMatch(/^(api-\d|nginx)$/); // nginx answers what it refuses itself
    expect(await audit(info, couponId)).toEqual(before);
  });

  it('a repeated grab by the same user is a 409 duplicate and changes nothing', async () => {
    const before = await audit(info, couponId);
    const res = await http<ErrorBody>('POST', `${info.nginxUrl}/coupons/${couponId}/grab?strategy=watchdog`, {
      userId: 'first-buyer',
    });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: 'GRANT.DUPLICATE' });
    expect(await audit(info, couponId)).toEqual(before);
  });

  describe('a replica running without CHAOS_ENABLED', () => {
    let replica: ExtraReplica;
    beforeAll(async () => {
      replica = await startChaosOffReplica(info, testPort(23199));
    });
    afterAll(() => replica?.stop());

    it.each(['crash=1', 'pauseMs=10', 'freezeMs=10', 'leaseMs=1000', 'waitMs=0', 'nested=1'])(
      'refuses %s with 403',
      async (option) => {
        const before = await audit(info, couponId);
        const res = await http<ErrorBody>(
          'POST',
          `${replica.url}/coupons/${couponId}/grab?strategy=watchdog&${option}`,
          { userId: 'chaos-tester' },
        );
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'CHAOS.DISABLED' });
        expect(await audit(info, couponId)).toEqual(before);
      },
    );

    it('still serves ordinary grabs', async () => {
      const res = await http('POST', `${replica.url}/coupons/${couponId}/grab?strategy=watchdog&workMs=1`, {
        userId: 'plain-buyer',
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-replica')).toBe('api-nochaos');
    });
  });
});
