import { setTimeout as sleep } from 'node:timers/promises';
import { acceptOrder, deadLetterArgs, nextCouponId, orderClient } from '../../../test/redis/order-kit';
import type { CounterLoad, OrdersPersisted, Refusal, StreamOrder } from '@app/stock';
import { orderKeys, PERSISTERS_GROUP } from './order-commands';
import { OrderDesk } from './order-desk';
import { OrderPersister } from './order-persister';
import { resetCounter } from './counter-reset';
import { GIVE_UP_REASONS } from './order-batch';

const SUPERSEDED = GIVE_UP_REASONS.superseded;

const redis = orderClient();
let couponId = 0;
beforeEach(() => (couponId = nextCouponId()));

/**
 * The database's side as the real statements behave (Redis is real): a load starts a new epoch and
 * waits for the persist in flight (`gate`), a persist refuses orders of an ended epoch.
 */
function ledger(stock: number) {
  const grants = new Map<string, string>();
  let release: () => void = () => undefined;
  const db = {
    stock,
    grants,
    epoch: 0,
    /** While set, a persist waits for it (its rows locked elsewhere), and a load waits for that persist. */
    gate: null as Promise<void> | null,
    hold() {
      db.gate = new Promise<void>((resolve) => (release = resolve));
    },
    release: () => release(),
    persisting: 0,
    loadCounter: async (): Promise<CounterLoad> => {
      while (db.persisting > 0) await sleep(5);
      db.epoch += 1;
      return { stock: db.stock, epoch: String(db.epoch), buyers: [...grants] };
    },
    reachable: () => Promise.resolve(true),
    granted: (_coupon: number, orders: readonly StreamOrder[]) =>
      Promise.resolve(new Set(orders.filter((o) => grants.get(o.userId) === o.orderId).map((o) => o.orderId))),
    persist: async (_coupon: number, orders: readonly StreamOrder[]): Promise<OrdersPersisted> => {
      db.persisting += 1;
      try {
        await db.gate;
        const granted = new Set<string>();
        const refused = new Map<string, Refusal>();
        let inserted = 0;
        for (const o of orders) {
          if (o.epoch !== String(db.epoch)) refused.set(o.orderId, 'superseded');
          else if (grants.get(o.userId) === o.orderId) granted.add(o.orderId);
          else if (grants.has(o.userId)) refused.set(o.orderId, 'duplicate');
          else if (db.stock > 0) {
            db.stock -= 1;
            grants.set(o.userId, o.orderId);
            granted.add(o.orderId);
            inserted += 1;
          } else refused.set(o.orderId, 'sold-out');
        }
        return { granted, inserted, refused };
      } finally {
        db.persisting -= 1;
      }
    },
  };
  return db;
}

const persister = (db: ReturnType<typeof ledger>) =>
  new OrderPersister(
    redis,
    db,
    {
      consumer: 'c1',
      batchSize: 50,
      statementLifeMs: 100,
      reclaimIdleMs: 150,
      maxFailures: 3,
      pollMs: 5,
      discoverEveryMs: 50,
    },
    { discover: () => Promise.resolve([couponId]) },
  );

async function until(done: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await sleep(10);
  }
}

/** Every key of the coupon's slot gone, as after Redis restarted without its file. */
const loseRedis = () => {
  const keys = orderKeys(couponId);
  return redis.del(keys.counter, keys.epoch, keys.loading, keys.buyers, keys.orders, keys.dead, keys.deadBuyers);
};

const deadLetters = async () =>
  ((await redis.xrange(orderKeys(couponId).dead, '-', '+')) as [string, string[]][]).map(([, f]) => f);

describe('counter epochs on a real Redis', () => {
  it('order-accept stamps the counter epoch, and waits (-2) while a load or a reset holds the claim', async () => {
    const keys = orderKeys(couponId);
    const accept = (user: string) => acceptOrder(redis, keys, user);
    await redis.set(keys.counter, 2);
    expect(await accept('a')).toBe(-2); // a counter without its epoch is not loaded
    await redis.set(keys.epoch, '7');
    await redis.set(keys.loading, 'reset:1');
    expect(await accept('a')).toBe(-2);
    await redis.del(keys.loading);
    const [, orderId] = (await accept('a')) as [number, string];
    const [[, fields]] = (await redis.xrange(keys.orders, orderId, orderId)) as [string, string[]][];
    expect(fields.slice(6, 8)).toEqual(['epoch', '7']);
  });

  it('order-dead-letter: a superseded order gives no unit back, nor does one of another epoch; a counter of its epoch is dropped', async () => {
    const keys = orderKeys(couponId);
    const giveUp = (orderId: string, refusal: 'superseded' | '') =>
      redis.orderDeadLetter(...deadLetterArgs(keys), orderId, 1, 'why', refusal);
    await redis.set(keys.counter, 4);
    await redis.set(keys.epoch, '2');
    const accept = (user: string) => acceptOrder(redis, keys, user);
    const [, first] = (await accept('a')) as [number, string];
    const [, second] = (await accept('b')) as [number, string];
    const [, third] = (await accept('c')) as [number, string];
    await redis.xgroup('CREATE', keys.orders, PERSISTERS_GROUP, '0');
    await redis.xreadgroup('GROUP', PERSISTERS_GROUP, 'c1', 'STREAMS', keys.orders, '>');
    await redis.set(keys.epoch, '3'); // the counter reloaded since: it never counted these orders
    expect(await giveUp(first, 'superseded')).toBe(1);
    expect(await giveUp(second, '')).toBe(1); // refused otherwise, but taken from another epoch's counter
    expect(await giveUp(first, 'superseded')).toBe(-1);
    expect([
      await redis.get(keys.counter),
      await redis.hexists(keys.buyers, 'a'),
      await redis.hexists(keys.buyers, 'b'),
      await redis.xlen(keys.orders),
    ]).toEqual(['1', 0, 0, 1]);
    const [dead] = await deadLetters();
    expect([...dead.slice(0, 4), ...dead.slice(6, 8)]).toEqual(['orderId', first, 'reason', 'why', 'user', 'a']);
    expect(JSON.parse((await redis.hget(keys.deadBuyers, 'a'))!)).toEqual({ orderId: first, reason: 'why' });
    // Refused while Redis's counter is still in the order's epoch: that counter predates the database's.
    await redis.set(keys.epoch, '2');
    expect(await giveUp(third, 'superseded')).toBe(1);
    expect(await redis.exists(keys.counter, keys.epoch)).toBe(0);
  });
});

describe('OrderDesk, OrderPersister and counter loads', () => {
  it('a counter load waits for the persist in flight and reads the stock after it: the counter stays the stock of record', async () => {
    const db = ledger(5);
    const front = new OrderDesk(redis, () => db.loadCounter());
    await front.accept({ couponId, userId: 'early', replica: 'spec' });
    db.hold();
    const p = persister(db);
    const round = p.round();
    await until(() => db.persisting === 1);
    await loseRedis();
    let accepted = false;
    const late = front.accept({ couponId, userId: 'late', replica: 'spec' }).finally(() => (accepted = true));
    await sleep(50);
    expect(accepted).toBe(false); // the load waits for the persist in flight
    db.release();
    await round;
    await late;
    await until(async () => {
      await p.round();
      return (await redis.xlen(orderKeys(couponId).orders)) === 0;
    });
    expect({
      granted: [...db.grants.keys()],
      stock: db.stock,
      counter: await redis.get(orderKeys(couponId).counter),
    }).toEqual({ granted: ['early', 'late'], stock: 3, counter: '3' });
  });

  it('a load after Redis lost its keys records the grant holders: a granted user is refused, not accepted again', async () => {
    const db = ledger(5);
    const front = new OrderDesk(redis, () => db.loadCounter());
    await front.accept({ couponId, userId: 'granted', replica: 'spec' });
    const p = persister(db);
    await until(async () => (await p.round(), db.grants.size === 1));
    await loseRedis();
    await expect(front.accept({ couponId, userId: 'granted', replica: 'spec' })).rejects.toMatchObject({
      code: 'GRANT.DUPLICATE',
    });
    await expect(front.accept({ couponId, userId: 'new', replica: 'spec' })).resolves.toMatchObject({ left: 3 });
  });

  it('a reset while orders wait: they are given up as superseded, and the new sale sells exactly its stock', async () => {
    const db = ledger(4);
    const front = new OrderDesk(redis, () => db.loadCounter());
    for (const u of ['a', 'b']) await front.accept({ couponId, userId: u, replica: 'spec' });
    await resetCounter(redis, couponId, () => {
      db.epoch += 1; // the reset's own epoch
      db.stock = 3;
      return Promise.resolve();
    });
    const after = await Promise.allSettled(
      ['a', 'c', 'd', 'e'].map((u) => front.accept({ couponId, userId: u, replica: 'spec' })),
    );
    expect(after.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    const p = persister(db);
    await until(async () => (await p.round(), (await redis.xlen(orderKeys(couponId).orders)) === 0));
    expect({
      granted: [...db.grants.keys()].sort(),
      stock: db.stock,
      counter: await redis.get(orderKeys(couponId).counter),
    }).toEqual({ granted: ['a', 'c', 'd'], stock: 0, counter: '0' });
    const dead = await deadLetters();
    expect(dead.map((f) => [...f.slice(2, 4), ...f.slice(6, 8)])).toEqual([
      ['reason', SUPERSEDED, 'user', 'a'],
      ['reason', SUPERSEDED, 'user', 'b'],
    ]);
    // The buyer of an order the reset superseded is told so; one who bought again holds a grant.
    expect(await front.lookup(couponId, 'b')).toMatchObject({ state: 'dead-lettered', reason: SUPERSEDED });
    expect(db.grants.has('a')).toBe(true);
  });
});
