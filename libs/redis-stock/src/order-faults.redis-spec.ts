import { setTimeout as sleep } from 'node:timers/promises';
import { nextCouponId, orderClient } from '../../../test/redis/order-kit';
import { StockUnavailableError, type OrdersPersisted, type Refusal, type StreamOrder } from '@app/stock';
import { orderKeys, PERSISTERS_GROUP } from './order-commands';
import { OrderDesk } from './order-desk';
import { OrderPersister } from './order-persister';
import type { OrderLedger } from './persister-options';

const redis = orderClient();
let couponId = 0;
beforeEach(() => (couponId = nextCouponId()));

/**
 * An in-memory stand-in for PostgreSQL (Redis is real) with the statement's rules and its faults:
 * one grant per user, the stock falls by the grants inserted, an order granted earlier is found by
 * its id; the stock row can be locked elsewhere (a statement waiting for it past `timeoutMs` is
 * cancelled, as a statement timeout does), a statement holding a `poison` user fails, and with
 * `staleSnapshot` a statement does not see grants committed by others (it refuses those orders).
 */
function database(stock: number) {
  const db = {
    stock,
    grants: new Map<string, string>(),
    lockedUntil: 0,
    timeoutMs: 100,
    poison: new Set<string>(),
    /** While set, every statement fails with it (the database failing as a whole). */
    fault: null as Error | null,
    staleSnapshot: false,
    statements: 0,
    reachable: () => Promise.resolve(true),
    granted: (_coupon: number, orders: readonly StreamOrder[]) =>
      Promise.resolve(new Set(orders.filter((o) => db.grants.get(o.userId) === o.orderId).map((o) => o.orderId))),
    persist: async (_coupon: number, orders: readonly StreamOrder[]): Promise<OrdersPersisted> => {
      db.statements += 1;
      const started = Date.now();
      while (Date.now() < db.lockedUntil) {
        if (Date.now() - started >= db.timeoutMs)
          throw new StockUnavailableError({ cause: new Error('canceling statement due to statement timeout') });
        await sleep(5);
      }
      if (db.fault) throw db.fault;
      const bad = orders.find((o) => db.poison.has(o.userId));
      if (bad)
        throw Object.assign(new Error(`value too long for type character varying(64): ${bad.userId}`), {
          code: '22001',
        });
      const granted = new Set<string>();
      const refused = new Map<string, Refusal>();
      let inserted = 0;
      for (const o of orders) {
        if (db.grants.has(o.userId)) {
          if (!db.staleSnapshot && db.grants.get(o.userId) === o.orderId) granted.add(o.orderId);
          else refused.set(o.orderId, 'duplicate');
        } else if (db.stock > 0) {
          db.stock -= 1;
          db.grants.set(o.userId, o.orderId);
          granted.add(o.orderId);
          inserted += 1;
        } else refused.set(o.orderId, 'sold-out');
      }
      return { granted, inserted, refused };
    },
  };
  return db;
}

/** A desk whose counter loads `stockOfRecord` in epoch 1 (the persists here never change epochs). */
const desk = (stockOfRecord: number) =>
  new OrderDesk(redis, () => Promise.resolve({ stock: stockOfRecord, epoch: '1', buyers: [] }));

/** A persister whose statements can outlive the idle time of the old settings, never the new rule's. */
function persister(db: OrderLedger, consumer: string, dead: string[] = []) {
  return new OrderPersister(
    redis,
    db,
    {
      consumer,
      batchSize: 50,
      reclaimIdleMs: 250,
      statementLifeMs: 150,
      maxFailures: 3,
      pollMs: 5,
      discoverEveryMs: 50,
    },
    { discover: () => Promise.resolve([couponId]), deadLettered: (n: number) => dead.push(String(n)) },
  );
}

/** Runs rounds of every persister until `done` holds (observed state), or fails after `timeoutMs`. */
async function roundsUntil(ps: OrderPersister[], done: () => Promise<boolean> | boolean, timeoutMs = 8000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    for (const p of ps) await p.round().catch(() => undefined);
    await sleep(10);
  }
}

const keys = () => orderKeys(couponId);
const streamEmpty = async () => (await redis.xlen(keys().orders)) === 0;
const deadLetters = () => redis.xlen(keys().dead);
/** What the orders came to: grants, the stock of record, dead letters. */
const outcome = async (db: { grants: Map<string, string>; stock: number }) => ({
  grants: db.grants.size,
  stock: db.stock,
  dead: await deadLetters(),
});

async function acceptAll(front: OrderDesk, users: readonly string[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const u of users) ids.set(u, (await front.accept({ couponId, userId: u, replica: 'spec' })).orderId);
  return ids;
}

describe('accepted means sold: the persisters never give back an order the database may still grant', () => {
  it('a stock row locked far past the statement timeout and the idle time: every order granted once it goes, none dead-lettered', async () => {
    const db = database(20);
    await acceptAll(
      desk(20),
      Array.from({ length: 20 }, (_, i) => `u${i}`),
    );
    db.lockedUntil = Date.now() + 2000; // 20 statement timeouts, 8 idle times
    const ps = [persister(db, 'p1'), persister(db, 'p2')];
    await roundsUntil(ps, async () => Date.now() > db.lockedUntil && (await streamEmpty()), 15_000);
    expect(await outcome(db)).toEqual({ grants: 20, stock: 0, dead: 0 });
    expect(await redis.get(keys().counter)).toBe('0');
  });

  it('an order whose grant committed while its statement saw an older snapshot is acknowledged, never given back', async () => {
    const db = database(1);
    const ids = await acceptAll(desk(1), ['a']);
    // A delivery committed the grant and its XACK never came (a Redis blip, a crash): three deliveries so far.
    await redis.xgroup('CREATE', keys().orders, PERSISTERS_GROUP, '0');
    await redis.xreadgroup('GROUP', PERSISTERS_GROUP, 'ghost', 'STREAMS', keys().orders, '>');
    for (let i = 0; i < 2; i++) await redis.xclaim(keys().orders, PERSISTERS_GROUP, 'ghost', 0, ids.get('a')!);
    db.grants.set('a', ids.get('a')!);
    db.stock = 0;
    db.staleSnapshot = true; // the redelivery's statement does not see that commit
    await roundsUntil([persister(db, 'p1')], streamEmpty);
    expect({ dead: await deadLetters(), counter: await redis.get(keys().counter), stock: db.stock }).toEqual({
      dead: 0,
      counter: '0',
      stock: 0,
    });
  });

  it('a database-wide error (read-only after a failover) past the failure limit: every order granted once it goes, none dead-lettered', async () => {
    const db = database(4);
    await acceptAll(desk(4), ['a', 'b', 'c', 'd']);
    db.fault = Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' });
    const ps = [persister(db, 'p1'), persister(db, 'p2')];
    // Every order delivered more often than the failure limit (3) while the fault lasts, or given up.
    await roundsUntil(ps, async () => {
      const rows = (await redis.xpending(keys().orders, PERSISTERS_GROUP, '-', '+', 10).catch(() => [])) as [
        string,
        string,
        number,
        number,
      ][];
      return (await deadLetters()) > 0 || (rows.length === 4 && rows.every(([, , , deliveries]) => deliveries > 3));
    });
    db.fault = null;
    await roundsUntil(ps, streamEmpty);
    expect(await outcome(db)).toEqual({ grants: 4, stock: 0, dead: 0 });
    expect(await redis.get(keys().counter)).toBe('0');
  });

  it('one poison order in a batch: the others are granted at once, only it goes to the dead letters', async () => {
    const db = database(10);
    const users = Array.from({ length: 10 }, (_, i) => (i === 6 ? 'poison' : `u${i}`));
    const ids = await acceptAll(desk(10), users);
    db.poison.add('poison');
    const p = persister(db, 'p1');
    await p.round().catch(() => undefined); // one delivery of the whole batch
    expect(db.grants.size).toBe(9);
    await roundsUntil([p], streamEmpty);
    const dead = (await redis.xrange(keys().dead, '-', '+')) as [string, string[]][];
    expect(dead.map(([, f]) => f[f.indexOf('orderId') + 1])).toEqual([ids.get('poison')]);
    expect(dead[0][1][dead[0][1].indexOf('reason') + 1]).toMatch(/value too long/);
    expect({ stock: db.stock, counter: await redis.get(keys().counter) }).toEqual({ stock: 1, counter: '1' });
  });

  it('no statement starts later than reclaimIdle − statementLife after its delivery: what is left waits for the next one', async () => {
    const db = database(16);
    const users = Array.from({ length: 16 }, (_, i) => (i === 3 ? 'poison' : `u${i}`));
    await acceptAll(desk(16), users);
    db.poison.add('poison');
    const idleAtStart: number[] = [];
    const slow: OrderLedger = {
      ...db,
      persist: async (coupon, orders) => {
        const rows = (await redis.xpending(keys().orders, PERSISTERS_GROUP, '-', '+', 100)) as [
          string,
          string,
          number,
        ][];
        const ids = new Set(orders.map((o) => o.orderId));
        idleAtStart.push(Math.max(...rows.filter(([id]) => ids.has(id)).map(([, , idle]) => idle)));
        await sleep(40);
        return db.persist(coupon, orders);
      },
    };
    // 250 − 150: each delivery may start statements for 100 ms, fewer than splitting 16 orders takes.
    await roundsUntil([persister(slow, 'p1')], streamEmpty);
    expect({ grants: db.grants.size, dead: await deadLetters() }).toEqual({ grants: 15, dead: 1 });
    expect(Math.max(...idleAtStart)).toBeLessThanOrEqual(100);
    expect(idleAtStart.length).toBeGreaterThan(3);
  });
});
