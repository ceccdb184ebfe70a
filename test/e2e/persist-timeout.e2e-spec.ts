import { Redis } from 'ioredis';
import { Client } from 'pg';
import { RedisStock, stockKeys } from '@app/redis-stock';
import { CLIENT_MARGIN_MS, DeductionService, STATEMENT_TIMEOUT_MS, StockDatabase } from '@app/stock';
import { createCoupon, testStack } from './support/stack';

jest.setTimeout(120_000);

const APP = 'persist-timeout-spec';

/** Until no statement of this spec's pool runs in PostgreSQL any more. */
async function settled(pg: Client): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { rows } = await pg.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND state = 'active'`,
      [APP],
    );
    if (rows[0].n === 0) return;
    if (Date.now() > deadline) throw new Error('a persist still runs after 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The coupon's reservations, [id, deadline] each, once there is one. */
async function reservations(redis: Redis, couponId: number): Promise<Array<[string, number]>> {
  for (;;) {
    const flat = await redis.zrange(stockKeys(couponId).reservations, 0, -1, 'WITHSCORES');
    if (flat.length > 0)
      return Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], Number(flat[2 * i + 1])]);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("redis-lua's persist held past the client's timeout", () => {
  it('never commits after its error was caught: the unit given back leaves Redis equal to the stock of record', async () => {
    const info = testStack();
    const coupon = await createCoupon(info, 3);
    const db = new StockDatabase({ databaseUrl: info.databaseUrl, applicationName: APP, statementTimeoutMs: 500 });
    const deductions = new DeductionService(db);
    const redis = new Redis(info.redisUrl);
    const holder = new Client({ connectionString: info.databaseUrl });
    const watcher = new Client({ connectionString: info.databaseUrl });
    await Promise.all([holder.connect(), watcher.connect()]);
    try {
      const stock = new RedisStock(redis, {
        currentStock: async (id) =>
          (
            await db.query<{ stock: number }>(
              'SELECT SUM(stock)::int AS stock FROM stock_segments WHERE coupon_id = $1',
              [id],
            )
          )[0].stock,
        loadCounter: (id) => deductions.loadCounter(id),
        grantedUsers: async (id, users) =>
          new Set(
            (
              await db.query<{ userId: string }>(
                'SELECT user_id AS "userId" FROM grants WHERE coupon_id = $1 AND user_id = ANY($2::varchar[])',
                [id, users],
              )
            ).map((r) => r.userId),
          ),
        persist: (req) => deductions.atomic(req),
      });
      // Another session holds the stock row: the persist waits for it past every timeout.
      await holder.query('BEGIN');
      await holder.query('SELECT stock FROM stock_segments WHERE coupon_id = $1 FOR UPDATE', [coupon.id]);
      const req = { couponId: coupon.id, userId: 'held', strategy: 'redis-lua', replica: 'spec' };
      const taking = stock.take(req);
      // Its reservation outlives the longest a persist can last, so reconciling never gives it back early.
      const [[id, deadline]] = await reservations(redis, coupon.id);
      const [seconds] = await redis.time();
      expect(deadline - Number(seconds) * 1000).toBeGreaterThan(STATEMENT_TIMEOUT_MS + CLIENT_MARGIN_MS);
      expect(id).toMatch(/^held/);
      await expect(taking).rejects.toThrow();
      await holder.query('COMMIT');
      await settled(watcher);

      const { rows } = await watcher.query<{ stock: number; grants: number }>(
        `SELECT (SELECT SUM(stock)::int FROM stock_segments WHERE coupon_id = $1) AS stock,
                (SELECT count(*)::int FROM grants WHERE coupon_id = $1) AS grants`,
        [coupon.id],
      );
      expect({ counter: await stock.counter(coupon.id), ...rows[0] }).toEqual({ counter: 3, stock: 3, grants: 0 });
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await Promise.all([holder.end(), watcher.end(), db.close()]);
      redis.disconnect();
    }
  });
});
