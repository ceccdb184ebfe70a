import { setTimeout as sleep } from 'node:timers/promises';
import { acceptOrder, deadLetterArgs, nextCouponId, orderClient } from '../../../test/redis/order-kit';
import {
  StockUnavailableError,
  type CounterLoad,
  type OrdersPersisted,
  type Refusal,
  type StreamOrder,
} from '@app/stock';
import { orderKeys, PERSISTERS_GROUP, type OrderKeys } from './order-commands';
import { OrderDesk } from './order-desk';
import { reconcileStock } from './reconcile';
import { GIVE_UP_REASONS } from './order-batch';
import { OrderPersister } from './order-persister';
import type { OrderLedger } from './persister-options';

const redis = orderClient();
let couponId = 0;
beforeEach(() => (couponId = nextCouponId()));

/**
 * An in-memory stand-in for PostgreSQL with the statement's rules (Redis is real): one grant per
 * user, the stock falls by the grants inserted, an order granted by an earlier delivery is
 * recognised by its id, and an order of an ended counter epoch is refused. `commits` counts statements.
 */
function ledger(stock: number, behave: { hang?: boolean; fail?: boolean } = {}) {
  const grants = new Map<string, string>();
  const db = {
    stock,
    grants,
    epoch: 0,
    commits: 0,
    reachable: () => Promise.resolve(!behave.fail),
    granted: (_coupon: number, orders: readonly StreamOrder[]) =>
      Promise.resolve(new Set(orders.filter((o) => grants.get(o.userId) === o.orderId).map((o) => o.orderId))),
    /** A counter load: a new epoch; `counterStock` loads Redis with another stock than the record's. */
    loadCounter: (counterStock?: number): Promise<CounterLoad> => {
      db.epoch += 1;
      return Promise.resolve({ stock: counterStock ?? db.stock, epoch: String(db.epoch), buyers: [...grants] });
    },
    persist: (_coupon: number, orders: readonly StreamOrder[]): Promise<OrdersPersisted> => {
      if (behave.hang) return new Promise(() => undefined);
      if (behave.fail) return Promise.reject(new StockUnavailableError({ cause: new Error('database down') }));
      const granted = new Set<string>();
      const refused = new Map<string, Refusal>();
      let inserted = 0;
      for (const o of orders) {
        if (o.epoch !== String(db.epoch)) refused.set(o.orderId, 'superseded');
        else if (grants.has(o.userId)) {
          if (grants.get(o.userId) === o.orderId) granted.add(o.orderId);
          else refused.set(o.orderId, 'duplicate');
        } else if (db.stock > 0) {
          db.stock -= 1;
          grants.set(o.userId, o.orderId);
          granted.add(o.orderId);
          inserted += 1;
        } else refused.set(o.orderId, 'sold-out');
      }
      db.commits += 1;
      return Promise.resolve({ granted, inserted, refused });
    },
  };
  return db;
}

/** The desk of a ledger's coupon; `counterStock`: what Redis's counter is loaded with, if not the record's. */
const desk = (db: ReturnType<typeof ledger>, counterStock?: number) =>
  new OrderDesk(redis, () => db.loadCounter(counterStock));

/** A counter loaded as by a loader, in epoch 1. */
async function load(keys: OrderKeys, stock: number): Promise<void> {
  await redis.stockLoad(keys.counter, stock);
  await redis.set(keys.epoch, '1');
}

function persister(
  db: OrderLedger,
  consumer: string,
  hooks: Partial<ConstructorParameters<typeof OrderPersister>[3]> = {},
) {
  return new OrderPersister(
    redis,
    db,
    {
      consumer,
      batchSize: 50,
      reclaimIdleMs: 150,
      statementLifeMs: 100,
      maxFailures: 3,
      pollMs: 5,
      discoverEveryMs: 50,
    },
    { discover: () => Promise.resolve([couponId]), ...hooks },
  );
}

/** Runs rounds until `done` holds (observed state), or fails after `timeoutMs`. */
async function roundsUntil(p: OrderPersister, done: () => Promise<boolean> | boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await p.round().catch(() => undefined);
    await sleep(10);
  }
}

/** Orders delivered and not acknowledged (0 before a persister made the group). */
const pendingCount = async () => {
  const summary = await redis.xpending(orderKeys(couponId).orders, PERSISTERS_GROUP).catch(() => [0]);
  return Number(summary[0]);
};

async function until(done: () => Promise<boolean>, timeoutMs = 2000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await sleep(10);
  }
}

describe('order Lua scripts on a real Redis', () => {
  it('order-accept: -2 when not loaded, then takes the unit, records the buyer and appends the order in one step', async () => {
    const keys = orderKeys(couponId);
    expect(await acceptOrder(redis, keys, 'a', 'api-1')).toBe(-2);
    await load(keys, 2);
    const [seconds] = await redis.time();
    const answer = await acceptOrder(redis, keys, 'a', 'api-1');
    expect(Array.isArray(answer)).toBe(true);
    const [left, orderId] = answer as [number, string];
    expect(left).toBe(1);
    expect(await redis.hget(keys.buyers, 'a')).toBe(orderId);
    const [[id, fields]] = (await redis.xrange(keys.orders, '-', '+')) as [string, string[]][];
    expect(id).toBe(orderId);
    expect(fields.slice(0, 4)).toEqual(['user', 'a', 'replica', 'api-1']);
    const acceptedUs = Number(fields[5]);
    expect(Math.floor(acceptedUs / 1e6)).toBeGreaterThanOrEqual(Number(seconds));
    expect(fields).not.toContain('crash');
  });

  it('order-accept: refuses a user with an order (-3) and answers -1 at zero, changing nothing', async () => {
    const keys = orderKeys(couponId);
    await load(keys, 1);
    await acceptOrder(redis, keys, 'a', 'api-1', 'after-commit');
    expect(await acceptOrder(redis, keys, 'a', 'api-2')).toBe(-3);
    expect(await acceptOrder(redis, keys, 'b', 'api-2')).toBe(-1);
    expect(await redis.get(keys.counter)).toBe('0');
    expect(await redis.xlen(keys.orders)).toBe(1);
    expect(await redis.hkeys(keys.buyers)).toEqual(['a']);
    const [[, fields]] = (await redis.xrange(keys.orders, '-', '+')) as [string, string[]][];
    expect(fields.slice(-2)).toEqual(['crash', 'after-commit']);
  });

  it('order-lookup: the order id while its entry is in the stream, the order given up and why, else nil', async () => {
    const keys = orderKeys(couponId);
    const lookup = () => redis.orderLookup(keys.buyers, keys.orders, keys.deadBuyers, 'a');
    await load(keys, 1);
    expect(await lookup()).toBeNull();
    const [, orderId] = (await acceptOrder(redis, keys, 'a')) as [number, string];
    expect(await lookup()).toEqual(['pending', orderId]);
    await redis.xdel(keys.orders, orderId);
    expect(await lookup()).toBeNull();
    await redis.hset(keys.deadBuyers, 'a', JSON.stringify({ orderId, reason: 'why' }));
    expect(await lookup()).toEqual(['dead-lettered', JSON.stringify({ orderId, reason: 'why' })]);
  });

  it('order-dead-letter: only for the persister holding the delivery; counts, then at the limit gives the order up once', async () => {
    const keys = orderKeys(couponId);
    await load(keys, 1);
    const [, orderId] = (await acceptOrder(redis, keys, 'a')) as [number, string];
    const fail = (consumer: string) =>
      redis.orderDeadLetter(...deadLetterArgs(keys, consumer), orderId, 2, 'its statement failed', '');
    await redis.xgroup('CREATE', keys.orders, PERSISTERS_GROUP, '0');
    expect(await fail('c1')).toBe(-1); // not delivered yet
    await redis.xreadgroup('GROUP', PERSISTERS_GROUP, 'c1', 'STREAMS', keys.orders, '>');
    expect(await fail('c2')).toBe(-1); // another persister's delivery: its statement may be running
    expect(await fail('c1')).toBe(0);
    expect(await redis.hget(keys.failures, orderId)).toBe('1');
    expect(await fail('c1')).toBe(1);
    expect(await fail('c1')).toBe(-1);
    const dead = (await redis.xrange(keys.dead, '-', '+')) as [string, string[]][];
    expect(dead).toHaveLength(1);
    expect(dead[0][1].slice(0, 8)).toEqual([
      'orderId',
      orderId,
      'reason',
      'its statement failed',
      'failures',
      '2',
      'user',
      'a',
    ]);
    expect(await redis.xlen(keys.orders)).toBe(0);
    expect(await redis.get(keys.counter)).toBe('1');
    expect(await redis.hexists(keys.buyers, 'a')).toBe(0);
    expect(await redis.hexists(keys.failures, orderId)).toBe(0);
    expect(JSON.parse((await redis.hget(keys.deadBuyers, 'a'))!)).toEqual({ orderId, reason: 'its statement failed' });
  });

  it('order-dead-letter: an entry that took no unit (no buyer of its own) gives nothing back', async () => {
    const keys = orderKeys(couponId);
    await redis.stockLoad(keys.counter, 3);
    const orderId = (await redis.xadd(keys.orders, '*', 'user', 'stray'))!;
    await redis.xgroup('CREATE', keys.orders, PERSISTERS_GROUP, '0');
    await redis.xreadgroup('GROUP', PERSISTERS_GROUP, 'c1', 'STREAMS', keys.orders, '>');
    expect(await redis.orderDeadLetter(...deadLetterArgs(keys), orderId, 1, 'malformed', '')).toBe(1);
    expect(await redis.get(keys.counter)).toBe('3');
  });

  it('order-drop-empty: deletes a stream with no entry, keeps one with entries', async () => {
    const keys = orderKeys(couponId);
    await redis.xadd(keys.orders, '*', 'user', 'a');
    expect(await redis.orderDropEmpty(keys.orders)).toBe(0);
    await redis.xtrim(keys.orders, 'MAXLEN', 0);
    expect(await redis.orderDropEmpty(keys.orders)).toBe(1);
    expect(await redis.exists(keys.orders)).toBe(0);
  });
});

describe('OrderDesk and OrderPersister', () => {
  it('accepts exactly the stock of 200 concurrent buyers; one persister drains them all, each granted once', async () => {
    const db = ledger(50);
    const front = desk(db);
    const answers = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => front.accept({ couponId, userId: `u${i}`, replica: 'spec' })),
    );
    const accepted = answers.filter((a) => a.status === 'fulfilled');
    expect(accepted).toHaveLength(50);
    expect(
      answers.filter((a) => a.status === 'rejected' && (a.reason as { code: string }).code === 'STOCK.SOLD_OUT'),
    ).toHaveLength(150);
    await expect(front.accept({ couponId, userId: 'u0', replica: 'spec' })).rejects.toMatchObject({
      code: expect.stringMatching(/GRANT.DUPLICATE|STOCK.SOLD_OUT/) as string,
    });
    const p = persister(db, 'c1');
    await roundsUntil(p, async () => db.grants.size === 50 && (await redis.xlen(orderKeys(couponId).orders)) === 0);
    expect(db.stock).toBe(0);
    expect(await redis.get(orderKeys(couponId).counter)).toBe('0');
    expect(await pendingCount()).toBe(0);
  });

  it('a persister that hangs mid-batch: another reclaims its orders once idle, and persists them', async () => {
    const db = ledger(5);
    const front = desk(db);
    for (const u of ['a', 'b', 'c']) await front.accept({ couponId, userId: u, replica: 'spec' });
    const stuck = persister({ ...db, persist: ledger(0, { hang: true }).persist }, 'dying');
    void stuck.round(); // never returns: its statement hangs, as in a replica that died mid-batch
    await until(async () => (await pendingCount()) === 3);
    const rescuer = persister(db, 'rescuer');
    const started = Date.now();
    await roundsUntil(rescuer, async () => db.grants.size === 3 && (await pendingCount()) === 0);
    expect(Date.now() - started).toBeLessThan(2 * 150 + 1000);
    expect(db.commits).toBeGreaterThanOrEqual(1);
  });

  it('a persister that dies after its commit, before XACK: the redelivered orders are acknowledged, never granted twice', async () => {
    const db = ledger(5);
    const front = desk(db);
    await front.accept({ couponId, userId: 'a', replica: 'spec', persisterCrash: 'after-commit' });
    await front.accept({ couponId, userId: 'b', replica: 'spec' });
    const seen: string[][] = [];
    const dying = persister(db, 'dying', {
      afterCommit: (points) => {
        seen.push([...points]);
        throw new Error('killed after commit');
      },
    });
    await expect(dying.round()).rejects.toThrow('killed after commit');
    expect(seen).toEqual([['after-commit']]);
    expect(db.grants.size).toBe(2);
    expect(await pendingCount()).toBe(2);
    const other = persister(db, 'other', { afterCommit: () => seen.push(['again']) });
    await roundsUntil(other, async () => (await pendingCount()) === 0);
    expect(seen).toHaveLength(1); // a redelivered order does not crash its new persister
    expect(db.grants.size).toBe(2);
    expect(db.stock).toBe(3);
  });

  it('an order the database refuses as sold out goes to the dead letters at once, its phantom unit not given back, and the buyer is told why', async () => {
    const db = ledger(0); // the stock of record has nothing, Redis thinks it has 2
    const front = desk(db, 2);
    const { orderId } = await front.accept({ couponId, userId: 'a', replica: 'spec' });
    let dead = 0;
    const p = persister(db, 'c1', { deadLettered: (n) => (dead += n) });
    await roundsUntil(p, () => dead === 1);
    const keys = orderKeys(couponId);
    expect(await redis.xlen(keys.dead)).toBe(1);
    expect(await redis.xlen(keys.orders)).toBe(0);
    expect(await redis.get(keys.counter)).toBe('1'); // one of Redis's two phantom units is gone
    expect(await front.lookup(couponId, 'a')).toEqual({
      state: 'dead-lettered',
      orderId,
      reason: GIVE_UP_REASONS['sold-out'],
    });
  });

  it('while the database is down, orders wait in the stream; once it is back they are persisted', async () => {
    const behave = { fail: true };
    const db = ledger(3, behave);
    const front = desk(db);
    const { orderId } = await front.accept({ couponId, userId: 'a', replica: 'spec' });
    const p = persister(db, 'c1');
    for (let i = 0; i < 5; i++) await p.round().catch(() => undefined);
    expect(await front.lookup(couponId, 'a')).toEqual({ state: 'pending', orderId });
    behave.fail = false;
    await roundsUntil(p, () => db.grants.size === 1);
    expect(await front.lookup(couponId, 'a')).toBeNull();
  });

  it('reconciliation leaves the counter alone while orders wait in the stream, and aligns it once they are persisted', async () => {
    const db = ledger(4);
    const front = desk(db);
    await front.accept({ couponId, userId: 'a', replica: 'spec' });
    const records = {
      currentStock: () => Promise.resolve(db.stock),
      grantedUsers: () => Promise.resolve(new Set<string>()),
    };
    expect((await reconcileStock(redis, couponId, records)).counter).toBe('busy');
    await roundsUntil(persister(db, 'c1'), () => db.grants.size === 1);
    expect(await reconcileStock(redis, couponId, records)).toMatchObject({ counter: 'in step', counterAfter: 3 });
  });
});
