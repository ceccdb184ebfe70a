import { Redis } from 'ioredis';
import { ApiClient, ApiError, type CrashPoint } from '@app/contract';
import { stockKeys } from '@app/redis-stock';
import { testStack } from './support/stack';

jest.setTimeout(120_000);

let sequence = 0;
const user = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${sequence++}`;
const clients = () => {
  const info = testStack();
  const nginx = new ApiClient({ baseUrl: info.nginxUrl, adminToken: info.adminToken, timeoutMs: 20_000 });
  return { info, nginx, victim: nginx.at(info.replicas[0].url) };
};

/** Until the killed replica is back (the stack restarts it) and answers its health check. */
async function backUp(client: ApiClient): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await client.healthy())) {
    if (Date.now() > deadline) throw new Error(`${client.baseUrl} not back within 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A grab that dies with its replica at `point`: no answer comes back. */
async function crashAt(
  victim: ApiClient,
  couponId: number,
  userId: string,
  strategy: string,
  point: CrashPoint,
  leaseMs?: number,
) {
  const answer = await victim.grab(couponId, userId, { strategy, crash: point, ...(leaseMs ? { leaseMs } : {}) });
  expect(answer.status).toBe(0);
  await backUp(victim);
}

describe('GET /coupons/:id/grants/:userId', () => {
  it("answers a user's grant, 404 GRANT.NOT_FOUND for one without, even once sold out", async () => {
    const { nginx } = clients();
    const coupon = await nginx.createCoupon({ stock: 1 });
    const buyer = user('buyer');
    expect((await nginx.grab(coupon.id, buyer, { strategy: 'db-atomic' })).status).toBe(200);
    const grant = await nginx.grant(coupon.id, buyer);
    expect(grant).toMatchObject({ userId: buyer, strategy: 'db-atomic' });
    expect(grant.replica).toMatch(/^api-/);
    await expect(nginx.grant(coupon.id, user('nobody'))).rejects.toMatchObject({
      status: 404,
      errorCode: 'GRANT.NOT_FOUND',
    });
    await expect(nginx.grant(999_999_999, buyer)).rejects.toMatchObject({ status: 404, errorCode: 'COUPON.NOT_FOUND' });
    await expect(nginx.grant(coupon.id, 'bad user!')).rejects.toMatchObject({
      status: 400,
      errorCode: 'REQUEST.INVALID',
    });
  });
});

describe.each(['db-atomic', 'watchdog', 'redis-lua', 'db-batched'])('crash=after-commit under %s', (strategy) => {
  it('keeps the grant the buyer never heard of; asking again answers GRANT.DUPLICATE with it', async () => {
    const { nginx, victim } = clients();
    const coupon = await nginx.createCoupon({ stock: 2 });
    const buyer = user('lost-answer');
    await crashAt(victim, coupon.id, buyer, strategy, 'after-commit');
    const stored = await nginx.grant(coupon.id, buyer);
    expect(stored.userId).toBe(buyer);
    const retry = await nginx.grab(coupon.id, buyer, { strategy });
    expect(retry).toMatchObject({ status: 409, code: 'GRANT.DUPLICATE' });
    expect(retry.body?.grant).toEqual(stored);
    expect(await nginx.audit(coupon.id)).toMatchObject({ grants: 1, stock: 1, oversold: 0, lostUpdates: 0 });
  });
});

describe('crash=after-reserve under redis-lua, then reconciliation', () => {
  it('strands a unit in Redis; reconciling leaves it while in flight, gives it back past its deadline, and the whole stock sells', async () => {
    const { info, nginx, victim } = clients();
    const coupon = await nginx.createCoupon({ stock: 3 });
    expect((await nginx.grab(coupon.id, user('first'), { strategy: 'redis-lua' })).status).toBe(200);
    await crashAt(victim, coupon.id, user('stranded'), 'redis-lua', 'after-reserve', 60_000);
    const early = await nginx.reconcile(coupon.id);
    expect(early).toMatchObject({ stockOfRecord: 2, counterBefore: 1, reservations: { inFlight: 1, returned: 0 } });
    expect(early.counter).toBe('busy');
    // Time passes for the reservation: its deadline moved to Redis's now, as a minute's wait would.
    const redis = new Redis(info.redisUrl);
    try {
      const { reservations } = stockKeys(coupon.id);
      const [id] = await redis.zrange(reservations, 0, 0);
      const [seconds] = await redis.time();
      expect(await redis.zadd(reservations, 'XX', 'CH', Number(seconds) * 1000 - 1, id)).toBe(1);
    } finally {
      redis.disconnect();
    }
    const report = await nginx.reconcile(coupon.id);
    expect(report).toMatchObject({ counterAfter: 2, reservations: { inFlight: 0, returned: 1 }, counter: 'in step' });
    const rest = await Promise.all([0, 1, 2].map(() => nginx.grab(coupon.id, user('rest'), { strategy: 'redis-lua' })));
    expect(rest.map((r) => r.status).sort()).toEqual([200, 200, 409]);
    expect(await nginx.audit(coupon.id)).toMatchObject({ grants: 3, stock: 0, oversold: 0, lostUpdates: 0 });
  });

  it('under db-batched: dies after the batch queue took the grab, before the statement; nothing is written', async () => {
    const { nginx, victim } = clients();
    const coupon = await nginx.createCoupon({ stock: 2 });
    const buyer = user('queued');
    await crashAt(victim, coupon.id, buyer, 'db-batched', 'after-reserve');
    await expect(nginx.grant(coupon.id, buyer)).rejects.toMatchObject({ status: 404, errorCode: 'GRANT.NOT_FOUND' });
    expect(await nginx.audit(coupon.id)).toMatchObject({ grants: 0, stock: 2 });
    // Nothing was stranded: the buyer asks again and the whole stock sells.
    const rest = await Promise.all(
      [buyer, user('rest'), user('rest')].map((u) => nginx.grab(coupon.id, u, { strategy: 'db-batched' })),
    );
    expect(rest.map((r) => r.status).sort()).toEqual([200, 200, 409]);
    expect(await nginx.audit(coupon.id)).toMatchObject({ grants: 2, stock: 0, oversold: 0, lostUpdates: 0 });
  });

  it('refuses crash=after-reserve for a strategy that reserves nothing', async () => {
    const { nginx } = clients();
    const coupon = await nginx.createCoupon({ stock: 1 });
    const answer = await nginx.grab(coupon.id, user('x'), { strategy: 'db-atomic', crash: 'after-reserve' });
    expect(answer).toMatchObject({ status: 400, code: 'REQUEST.INVALID' });
    expect(await nginx.audit(coupon.id)).toMatchObject({ grants: 0, stock: 1 });
  });

  it('answers 401 to a reconcile without the admin token', async () => {
    const { info } = clients();
    const anonymous = new ApiClient({ baseUrl: info.nginxUrl });
    await expect(anonymous.reconcile(1)).rejects.toBeInstanceOf(ApiError);
    await expect(anonymous.reconcile(1)).rejects.toMatchObject({ status: 401 });
  });
});
