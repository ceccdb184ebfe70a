import { Client } from 'pg';
import type { GrabAnswer } from '@app/contract';
import { OrderProbe, STRATEGY, users } from './support/orders';
import { control, testStack } from './support/stack';
import { waitFor } from '../../tools/stack/servers/child';

jest.setTimeout(120_000);

/** Redis killed and started again without its file: every key gone, as a restart with no persistence. */
async function restartRedisEmpty(probe: OrderProbe): Promise<void> {
  await control(probe.info, '/redis/stop?signal=SIGKILL');
  await control(probe.info, '/redis/start?empty=1');
  await probe.replicasUp();
}

/** Other sessions waiting on a row lock now. */
async function waitingOnLock(pg: Client): Promise<number> {
  const { rows } = await pg.query<{ n: number }>(
    `SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
  );
  return rows[0].n;
}

describe('redis-stream when Redis restarts empty', () => {
  const info = testStack();
  const probe = new OrderProbe(info);
  const holder = new Client({ connectionString: info.databaseUrl });
  beforeAll(async () => {
    await holder.connect();
    await probe.replicasUp();
  });
  afterAll(async () => {
    await holder.end();
    await probe.close();
  });
  /** Once the coupon's orders drained: its grants, its stock of record and Redis's counter. */
  const settled = async (couponId: number) => {
    await probe.drained(couponId);
    const { audit, redisCounter } = await probe.figures(couponId);
    return { grants: audit.grants, stock: audit.stock, redisCounter };
  };

  it('a counter reloaded while a persist is in flight ends equal to the stock of record', async () => {
    const coupon = await probe.api.createCoupon({ stock: 5 });
    const [first, second] = users('in-flight', 2);
    // The stock rows held by another transaction: the persist of the first order waits behind it.
    await holder.query('BEGIN');
    await holder.query('SELECT stock FROM stock_segments WHERE coupon_id = $1 FOR UPDATE', [coupon.id]);
    let late: Promise<GrabAnswer> | undefined;
    try {
      expect((await probe.api.grab(coupon.id, first, { strategy: STRATEGY })).status).toBe(202);
      await waitFor('the persist waits on the stock rows', async () => (await waitingOnLock(holder)) >= 1, 30_000, 20);
      await restartRedisEmpty(probe);
      // The next grab loads the counter again while that persist is still in flight.
      let answered = false;
      late = probe.api.grab(coupon.id, second, { strategy: STRATEGY }).finally(() => (answered = true));
      await waitFor(
        'the load answered or waits',
        async () => answered || (await waitingOnLock(holder)) >= 2,
        30_000,
        20,
      );
    } finally {
      await holder.query('COMMIT');
    }
    expect((await late).status).toBe(202);
    expect(await settled(coupon.id)).toEqual({ grants: 2, stock: 3, redisCounter: 3 });
  });

  it('a user granted before the restart gets no second 202', async () => {
    const coupon = await probe.api.createCoupon({ stock: 5 });
    const [buyer] = users('granted', 1);
    expect((await probe.api.grab(coupon.id, buyer, { strategy: STRATEGY })).status).toBe(202);
    await probe.drained(coupon.id);
    expect(await probe.api.lookupGrant(coupon.id, buyer)).toMatchObject({ state: 'granted' });
    await restartRedisEmpty(probe);
    const again = await probe.api.grab(coupon.id, buyer, { strategy: STRATEGY });
    expect([again.status, again.code]).toEqual([409, 'GRANT.DUPLICATE']);
    expect(await settled(coupon.id)).toEqual({ grants: 1, stock: 4, redisCounter: 4 });
  });
});
