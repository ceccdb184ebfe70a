import Redis from 'ioredis';
import { couponLockResource } from '@app/contract';
import { lockKeys } from '@app/lock';
import { waitFor } from '../../tools/stack/servers/child';
import { audit, burst, type GrabAnswer } from './support/grabs';
import { burstOnFreshCoupon, soldExactly } from './support/sell-out';
import { control, createCoupon, http, testStack, type StackInfo } from './support/stack';

jest.setTimeout(120_000);

const grab = (base: string, id: number | string, userId: string, query: string) =>
  http<GrabAnswer>('POST', `${base}/coupons/${id}/grab?${query}`, { userId });

async function metric(info: StackInfo, name: string): Promise<number> {
  let total = 0;
  for (const replica of info.replicas) {
    const text = (await http<string>('GET', `${replica.url}/metrics`)).body;
    for (const line of text.split('\n')) if (line.startsWith(name)) total += Number(line.split(' ').pop());
  }
  return total;
}

describe('fenced: the database refuses a holder that was frozen past its lease', () => {
  it("the stale write is refused while the newer holder's stands: no oversell, no lost update", async () => {
    const info = testStack();
    const coupon = await createCoupon(info, 10);
    const [a, b] = info.replicas;
    // A reads the stock, then its whole process freezes past the lease.
    const stale = grab(a.url, coupon.id, 'frozen', 'strategy=fenced&leaseMs=300&freezeMs=1500');
    // A holds the lock, then its lease runs out while it is frozen: B gets the lock and a newer token.
    const { lock, fence } = lockKeys(couponLockResource(coupon.id));
    const redis = new Redis(info.redisUrl, { maxRetriesPerRequest: 1 });
    try {
      await waitFor("A's token drawn", async () => (await redis.exists(fence)) === 1, 10_000, 10);
      await waitFor("A's lease run out", async () => (await redis.exists(lock)) === 0, 10_000, 10);
    } finally {
      redis.disconnect();
    }
    const fresh = await grab(b.url, coupon.id, 'fresh', 'strategy=fenced&leaseMs=5000');
    expect(fresh.status).toBe(200);
    const refused = await stale;
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 409, code: 'FENCE.REJECTED' });
    expect(await audit(info, coupon.id)).toEqual({
      initialStock: 10,
      stock: 9,
      grants: 1,
      oversold: 0,
      lostUpdates: 0,
      maxConcurrentHolders: 1,
      statements: 1,
    });
    const grants = (await http('GET', `${info.nginxUrl}/coupons/${coupon.id}/grants`)).body;
    expect(grants).toEqual([expect.objectContaining({ userId: 'fresh', fenceToken: fresh.body.fenceToken })]);
  });
});

describe("redlock over the stack's five nodes", () => {
  afterEach(async () => {
    const info = testStack();
    for (const i of [0, 1, 2]) await control(info, `/redlock/${i}/start`).catch(() => undefined);
  });

  it('stays exact with two nodes down', async () => {
    const info = testStack();
    await control(info, '/redlock/0/stop');
    await control(info, '/redlock/1/stop');
    const query = { strategy: 'redlock', workMs: 2 };
    const { seen, result } = await burstOnFreshCoupon(info, { via: info.nginxUrl, stock: 20, users: 60, query });
    expect(seen.counts).toEqual(soldExactly(20, 60));
    expect(result).toMatchObject({
      grants: 20,
      stock: 0,
      lostUpdates: 0,
      maxConcurrentHolders: 1,
    });
  });

  it('refuses with three nodes down (429), and nothing is written', async () => {
    const info = testStack();
    for (const i of [0, 1, 2]) await control(info, `/redlock/${i}/stop`);
    const coupon = await createCoupon(info, 5);
    const res = await grab(info.nginxUrl, coupon.id, 'no-quorum', 'strategy=redlock&waitMs=300');
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 429, code: 'LOCK.TIMEOUT' });
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await audit(info, coupon.id)).toMatchObject({ grants: 0, stock: 5 });
  });
});

describe('db-optimistic counts its retries', () => {
  it('losers retry, every answer says how often, and the metric adds them up', async () => {
    const info = testStack();
    const coupon = await createCoupon(info, 30);
    const before = await metric(info, 'oversell_optimistic_retries_total');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        grab(info.nginxUrl, coupon.id, `opt-${i}`, 'strategy=db-optimistic&workMs=2'),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
    const retries = answers.reduce((sum, a) => sum + a.body.retries!, 0);
    expect(retries).toBeGreaterThan(0);
    expect((await metric(info, 'oversell_optimistic_retries_total')) - before).toBe(retries);
    expect(await audit(info, coupon.id)).toMatchObject({ grants: 30, stock: 0, lostUpdates: 0 });
  });
});

describe('redis-lua: Redis reserves, the database persists, failures give back', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(testStack().redisUrl);
  });
  afterAll(() => redis.quit());

  it('after a sell-out the Redis counter equals the database stock', async () => {
    const info = testStack();
    const coupon = await createCoupon(info, 40);
    const seen = await burst(info.nginxUrl, coupon.id, 120, { strategy: 'redis-lua' });
    expect(seen.counts).toEqual(soldExactly(40, 120));
    expect(await redis.get(`stock:{coupon:${coupon.id}}`)).toBe('0');
  });

  it('a duplicate grab is given back: the counter still matches the database', async () => {
    const info = testStack();
    const coupon = await createCoupon(info, 5);
    expect((await grab(info.nginxUrl, coupon.id, 'twice', 'strategy=redis-lua')).status).toBe(200);
    expect((await grab(info.nginxUrl, coupon.id, 'twice', 'strategy=redis-lua')).body.code).toBe('GRANT.DUPLICATE');
    expect(await redis.get(`stock:{coupon:${coupon.id}}`)).toBe('4');
    expect(await audit(info, coupon.id)).toMatchObject({ grants: 1, stock: 4 });
  });

  it('a persist that fails with PostgreSQL down is given back, and the grab answers 503', async () => {
    const info = testStack();
    const coupon = await createCoupon(info, 5);
    expect((await grab(info.nginxUrl, coupon.id, 'warm', 'strategy=redis-lua')).status).toBe(200); // loads the counter
    await control(info, '/postgres/stop');
    try {
      const res = await grab(info.nginxUrl, coupon.id, 'while-down', 'strategy=redis-lua');
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'DEPENDENCY.UNAVAILABLE' });
      expect(await redis.get(`stock:{coupon:${coupon.id}}`)).toBe('4');
    } finally {
      await control(info, '/postgres/start');
    }
    expect(await audit(info, coupon.id)).toMatchObject({ grants: 1, stock: 4 });
  });
});
