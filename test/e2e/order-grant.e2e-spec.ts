import { Client } from 'pg';
import { StockDatabase, type RunQuery } from '@app/stock';
import { orderGrant, type StreamOrder } from '../../libs/stock/src/deduction/order-grant';
import { ordersGranted } from '../../libs/stock/src/deduction/orders-granted';
import { createCoupon, testStack } from './support/stack';

jest.setTimeout(60_000);

const APP = 'e2e-order-grant';
const order = (orderId: string, userId: string, epoch = '0'): StreamOrder => ({
  orderId,
  userId,
  replica: 'e2e',
  acceptedUs: String(Date.now() * 1000),
  epoch, // '0': a new coupon's counter epoch, no counter loaded yet
});

/** Backends of this spec's pool waiting on a lock (observed, never slept for). */
async function waitingOnLock(pg: Client): Promise<number> {
  const { rows } = await pg.query<{ n: number }>(
    `SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
    [APP],
  );
  return rows[0].n;
}

describe("redis-stream's persist on the real database", () => {
  const info = testStack();
  const db = new StockDatabase({ databaseUrl: info.databaseUrl, applicationName: APP });
  const holder = new Client({ connectionString: info.databaseUrl });
  const observer = new Client({ connectionString: info.databaseUrl });
  beforeAll(() => Promise.all([holder.connect(), observer.connect()]));
  afterAll(() => Promise.all([holder.end(), observer.end(), db.close()]));

  it('a persist that waited behind another batch sees its commit: acknowledges its orders and grants the rest', async () => {
    const coupon = await createCoupon(info, 2);
    const first = order(`${Date.now()}-1`, 'early');
    const holderQuery = (async (text: string, values?: unknown[]) =>
      (await holder.query<Record<string, unknown>>({ text, values })).rows) as RunQuery;
    // The first persister has written its batch and holds the stock rows until it commits.
    await holder.query('BEGIN');
    const mine = await orderGrant(holderQuery, coupon.id, [first], 'redis-stream');
    expect([...mine.granted]).toEqual([first.orderId]);
    // The same order redelivered to a second persister, with a fresh one, waits behind it.
    const second = order(`${Date.now()}-2`, 'late');
    const waiting = db.transaction((query) => orderGrant(query, coupon.id, [first, second], 'redis-stream'));
    for (let i = 0; (await waitingOnLock(observer)) === 0; i += 1) {
      if (i > 500) throw new Error('the second persist never waited on the lock');
      await new Promise((r) => setTimeout(r, 10));
    }
    await holder.query('COMMIT');
    const outcome = await waiting;
    expect({ granted: [...outcome.granted].sort(), inserted: outcome.inserted }).toEqual({
      granted: [first.orderId, second.orderId].sort(),
      inserted: 1,
    });
    const { rows } = await observer.query<{ stock: number }>(
      'SELECT SUM(stock)::int AS stock FROM stock_segments WHERE coupon_id = $1',
      [coupon.id],
    );
    expect(rows[0].stock).toBe(0);
  });

  it('tells why it refused each order it did not grant: superseded, sold out, or a duplicate', async () => {
    const coupon = await createCoupon(info, 1);
    const t = Date.now();
    const [a, aAgain, b, old] = [
      order(`${t}-1`, 'a'),
      order(`${t}-2`, 'a'),
      order(`${t}-3`, 'b'),
      order(`${t}-4`, 'c', '7'),
    ];
    const persist = (orders: StreamOrder[]) =>
      db.transaction((query) => orderGrant(query, coupon.id, orders, 'redis-stream'));
    const first = await persist([a, aAgain, b, old]);
    expect({ granted: [...first.granted], refused: Object.fromEntries(first.refused) }).toEqual({
      granted: [a.orderId],
      refused: { [aAgain.orderId]: 'duplicate', [b.orderId]: 'sold-out', [old.orderId]: 'superseded' },
    });
    const later = order(`${t}-5`, 'a');
    const second = await persist([a, later]);
    expect({ granted: [...second.granted], refused: Object.fromEntries(second.refused) }).toEqual({
      granted: [a.orderId],
      refused: { [later.orderId]: 'duplicate' },
    });
  });

  it("an order id reused by another user's entry (Redis restarted empty, its clock behind) is not taken for the old grant", async () => {
    const coupon = await createCoupon(info, 1);
    const id = `${Date.now()}-0`;
    const persist = (orders: StreamOrder[]) =>
      db.transaction((query) => orderGrant(query, coupon.id, orders, 'redis-stream'));
    const old = order(id, 'before-restart');
    expect([...(await persist([old])).granted]).toEqual([id]);
    const reused = order(id, 'after-restart');
    const outcome = await persist([reused]);
    expect({ granted: [...outcome.granted], refused: Object.fromEntries(outcome.refused) }).toEqual({
      granted: [],
      refused: { [id]: 'sold-out' },
    });
    expect([...(await ordersGranted(db.query, coupon.id, [reused]))]).toEqual([]);
    expect([...(await ordersGranted(db.query, coupon.id, [old]))]).toEqual([id]);
  });
});
