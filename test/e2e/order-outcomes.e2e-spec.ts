import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { ApiClient, type GrabAnswer } from '@app/contract';
import { orderKeys } from '@app/redis-stock';
import { startRedisServer } from '../../tools/stack/servers/redis-server';
import { testPort } from '../ports';
import { startExtraReplica, type ExtraReplica } from './support/extra-replica';
import { orderProbe, STRATEGY, users } from './support/orders';
import { e2eStackDir, http, testStack } from './support/stack';
import { waitFor } from '../../tools/stack/servers/child';

jest.setTimeout(240_000);

/** Until `done` holds (observed state), or fails after `timeoutMs`. */
describe('redis-stream: a 202 is a promise the buyer can check', () => {
  const probe = orderProbe();
  const { info } = probe;

  it('an accepted order the database refuses: the lookup answers 410 ORDER.DEAD_LETTERED with its order id and why, its phantom unit not given back', async () => {
    const coupon = await probe.api.createCoupon({ stock: 1 });
    const [first, second] = users('refused', 2);
    const holder = new Client({ connectionString: info.databaseUrl });
    await holder.connect();
    // Redis's counter one too high (as after a lost write), loaded in the database's counter epoch:
    // two orders accepted for one unit of record.
    const { rows } = await holder.query<{ epoch: string }>(
      'SELECT counter_epoch::text AS epoch FROM coupons WHERE id = $1',
      [coupon.id],
    );
    const keys = orderKeys(coupon.id);
    await probe.redis.mset(keys.counter, 2, keys.epoch, rows[0].epoch);
    // The stock row held meanwhile: no persister writes the first before the second is accepted
    // (else the sold-out memo would answer the second).
    let answers: GrabAnswer[];
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT stock FROM stock_segments WHERE coupon_id = $1 FOR UPDATE', [coupon.id]);
      answers = [
        await probe.api.grab(coupon.id, first, { strategy: STRATEGY }),
        await probe.api.grab(coupon.id, second, { strategy: STRATEGY }),
      ];
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    expect(answers.map((a) => a.status)).toEqual([202, 202]);
    await waitFor(
      'one order dead-lettered',
      async () => (await probe.redis.xlen(orderKeys(coupon.id).dead)) === 1,
      90_000,
    );
    await probe.drained(coupon.id);
    const lookups = await Promise.all([first, second].map((u) => probe.api.lookupGrant(coupon.id, u)));
    expect(lookups.map((l) => l.state).sort()).toEqual(['dead-lettered', 'granted']);
    const given = answers[lookups.findIndex((l) => l.state === 'dead-lettered')];
    const raw = await http<Record<string, unknown>>(
      'GET',
      `${info.nginxUrl}/coupons/${coupon.id}/grants/${given.userId}`,
    );
    expect([raw.status, raw.body.code, raw.body.orderId]).toEqual([410, 'ORDER.DEAD_LETTERED', given.body?.orderId]);
    expect(raw.body.reason).toMatch(/refused/);
    // Refused as sold out: Redis's counter was one above the stock of record, and now equals it.
    expect(await probe.redis.get(orderKeys(coupon.id).counter)).toBe('0');
  });
});

/**
 * The stock row locked elsewhere far longer than every timeout, while buyers grab: its own Redis
 * and two replicas with short settings (statement timeout 1 s, reclaim idle 3.5 s), so a lock of
 * 35 s outlasts dozens of statements, and the two deliveries after which orders used to be given up.
 */
describe('redis-stream: a slow database is never the order’s fault', () => {
  const info = testStack();
  const LOCK_MS = Number(process.env.SLOW_DB_LOCK_MS || 35_000);
  const BUYERS = 600;
  const STOCK = 300;

  it(`the stock row locked for the whole sale: once it goes and the stream drains, every 202 is a grant, none dead-lettered`, async () => {
    const redisPort = testPort(26730);
    const redisServer = await startRedisServer({ port: redisPort, dir: join(e2eStackDir(), 'slow-db-redis') });
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    const env = {
      REDIS_URL: redisUrl,
      DATABASE_STATEMENT_TIMEOUT_MS: '1000',
      ORDER_RECLAIM_IDLE_MS: '3500',
      ORDER_MAX_DELIVERIES: '2', // the delivery limit of the persisters before deliveries stopped counting
    };
    const replicas: ExtraReplica[] = [];
    const redis = new Redis(redisUrl);
    const holder = new Client({ connectionString: info.databaseUrl });
    const pg = new Client({ connectionString: info.databaseUrl });
    try {
      for (const [i, port] of [testPort(23194), testPort(23195)].entries())
        replicas.push(await startExtraReplica(info, { id: `slow-db-${i}`, port, chaos: false }, { env }));
      await Promise.all([holder.connect(), pg.connect()]);
      const api = new ApiClient({ baseUrl: info.nginxUrl, adminToken: info.adminToken });
      const coupon = await api.createCoupon({ stock: STOCK });
      await holder.query('BEGIN');
      await holder.query('SELECT stock FROM stock_segments WHERE coupon_id = $1 FOR UPDATE', [coupon.id]);
      const lockedAt = Date.now();
      const buyers = users('slow-db', BUYERS);
      const answers: GrabAnswer[] = await Promise.all(
        buyers.map((u, i) => api.at(replicas[i % replicas.length].url).grab(coupon.id, u, { strategy: STRATEGY })),
      );
      const accepted = answers.filter((a) => a.status === 202);
      expect(accepted).toHaveLength(STOCK);
      await new Promise((r) => setTimeout(r, Math.max(0, lockedAt + LOCK_MS - Date.now())));
      await holder.query('ROLLBACK');
      const keys = orderKeys(coupon.id);
      await waitFor('the stream drained', async () => (await redis.xlen(keys.orders)) === 0, 120_000);
      const { rows } = await pg.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM grants WHERE coupon_id = $1 AND order_id = ANY($2::varchar[])',
        [coupon.id, accepted.map((a) => a.body?.orderId)],
      );
      const audit = await api.audit(coupon.id);
      expect({
        grantsOfThe202s: rows[0].n,
        deadLetters: await redis.xlen(keys.dead),
        grants: audit.grants,
        stock: audit.stock,
        oversold: audit.oversold,
        lostUpdates: audit.lostUpdates,
        counter: await redis.get(keys.counter),
      }).toEqual({
        grantsOfThe202s: STOCK,
        deadLetters: 0,
        grants: STOCK,
        stock: 0,
        oversold: 0,
        lostUpdates: 0,
        counter: '0',
      });
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await Promise.all([holder.end(), pg.end()]).catch(() => undefined);
      redis.disconnect();
      for (const r of replicas) await r.stop();
      await redisServer.stop('SIGTERM');
    }
  });
});
