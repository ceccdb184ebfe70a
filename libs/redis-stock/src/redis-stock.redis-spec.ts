import type { Redis } from 'ioredis';
import { probeClient } from '../../../test/redis/lock-kit';
import { StockUnavailableError, type CounterLoad, type Granted, type GrantRequest } from '@app/stock';
import { reconcileStock } from './reconcile';
import { RedisStock } from './redis-stock';
import { defineStockCommands, stockKeys } from './redis-stock-commands';

const redis = probeClient();
defineStockCommands(redis);
let couponId = 1000 + Math.floor(Math.random() * 1_000_000);
const req = (userId: string): GrantRequest => ({ couponId, userId, strategy: 'redis-lua', replica: 'spec' });

/** An in-memory stand-in for PostgreSQL: only the database side is replaced, Redis is real. */
function records(stock: number, fail?: () => Error | null) {
  const granted = new Set<string>();
  const db = {
    stock,
    granted,
    currentStock: () => Promise.resolve(db.stock),
    epoch: 0,
    loadCounter: (): Promise<CounterLoad> => {
      db.epoch += 1;
      return Promise.resolve({ stock: db.stock, epoch: String(db.epoch), buyers: [] });
    },
    grantedUsers: (_: number, users: readonly string[]) =>
      Promise.resolve(new Set(users.filter((u) => granted.has(u)))),
    persist: (r: GrantRequest): Promise<Granted | null> => {
      const error = fail?.();
      if (error) return Promise.reject(error);
      if (db.stock <= 0) return Promise.resolve(null);
      db.stock -= 1;
      granted.add(r.userId);
      return Promise.resolve({ segment: 0, remaining: db.stock });
    },
  };
  return db;
}

/** The reservations Redis holds for the coupon, id → deadline. */
async function reservations(): Promise<Record<string, number>> {
  const flat = await redis.zrange(stockKeys(couponId).reservations, 0, -1, 'WITHSCORES');
  const out: Record<string, number> = {};
  for (let i = 0; i < flat.length; i += 2) out[flat[i]] = Number(flat[i + 1]);
  return out;
}

afterAll(() => redis.quit());
beforeEach(() => {
  couponId += 1;
});

describe('stock Lua scripts on a real Redis', () => {
  it('stock-take: -2 when not loaded, records each reservation with its deadline, -1 at zero', async () => {
    const { counter, reservations: zset } = stockKeys(couponId);
    expect(await redis.stockTake(counter, zset, 'a|1', 5000)).toBe(-2);
    expect(await redis.stockLoad(counter, 2)).toBe(1);
    expect(await redis.stockLoad(counter, 99)).toBe(0);
    const [seconds] = await redis.time();
    expect(await redis.stockTake(counter, zset, 'a|1', 5000)).toBe(1);
    expect(await redis.stockTake(counter, zset, 'b|1', 5000)).toBe(0);
    expect(await redis.stockTake(counter, zset, 'c|1', 5000)).toBe(-1);
    expect(await redis.get(counter)).toBe('0');
    const deadlines = await reservations();
    expect(Object.keys(deadlines).sort()).toEqual(['a|1', 'b|1']);
    expect(deadlines['a|1']).toBeGreaterThanOrEqual(Number(seconds) * 1000 + 5000);
  });

  it('stock-give-back: returns a recorded reservation once, never one that is not there', async () => {
    const { counter, reservations: zset } = stockKeys(couponId);
    await redis.stockLoad(counter, 1);
    await redis.stockTake(counter, zset, 'a|1', 5000);
    expect(await redis.stockGiveBack(counter, zset, 'a|1')).toBe(1);
    expect(await redis.stockGiveBack(counter, zset, 'a|1')).toBe(-3);
    expect(await redis.stockGiveBack(counter, zset, 'never|1')).toBe(-3);
    expect(await redis.get(counter)).toBe('1');
  });

  it('stock-give-back: drops the reservation but creates no counter when it is gone', async () => {
    const { counter, reservations: zset } = stockKeys(couponId);
    await redis.zadd(zset, Date.now(), 'a|1');
    expect(await redis.stockGiveBack(counter, zset, 'a|1')).toBe(-2);
    expect(await redis.exists(counter)).toBe(0);
    expect(await reservations()).toEqual({});
  });

  it('stock-load-claim / stock-load-epoch: one loader at a time, and only while its claim holds', async () => {
    const { counter, epoch, loading } = stockKeys(couponId);
    const claim = (token: string) => redis.stockLoadClaim(counter, epoch, loading, token, 5000);
    expect(await claim('a')).toBe(1);
    expect(await claim('b')).toBe(-1); // a loads: b waits
    expect(await redis.stockLoadEpoch(counter, epoch, loading, 9, '3', 'b')).toBe(-1);
    expect(await redis.exists(counter, epoch)).toBe(0);
    expect(await redis.stockLoadEpoch(counter, epoch, loading, 5, '3', 'a')).toBe(1);
    expect([await redis.get(counter), await redis.get(epoch), await redis.exists(loading)]).toEqual(['5', '3', 0]);
    expect(await claim('b')).toBe(0); // loaded
    // A claim that lapsed and was taken by another loader is no longer the first's.
    await redis.del(counter);
    expect(await redis.stockLoadClaim(counter, epoch, loading, 'c', 30)).toBe(1);
    await new Promise((r) => setTimeout(r, 60));
    expect(await claim('d')).toBe(1);
    expect(await redis.stockLoadEpoch(counter, epoch, loading, 1, '4', 'c')).toBe(-1);
    expect(await redis.stockUnclaim(loading, 'c')).toBe(0);
    expect(await redis.stockUnclaim(loading, 'd')).toBe(1);
    expect(await redis.exists(loading)).toBe(0);
  });

  it("stock-load-buyers: records grant holders only while the claim is the loader's", async () => {
    const { buyers, loading } = stockKeys(couponId);
    await redis.set(loading, 'a');
    expect(await redis.stockLoadBuyers(buyers, loading, 'a', 'u1', '1-1', 'u2', '0-0')).toBe(2);
    expect(await redis.stockLoadBuyers(buyers, loading, 'b', 'u3', '2-2')).toBe(-1);
    expect(await redis.hgetall(buyers)).toEqual({ u1: '1-1', u2: '0-0' });
  });

  it('stock-void: drops the counter, its epoch, claim, reservations, buyers and dead buyers, and starts a new generation', async () => {
    const { counter, reservations: zset, generation, epoch, loading, buyers, deadBuyers } = stockKeys(couponId);
    await redis.set(counter, 3);
    await redis.set(epoch, 2);
    await redis.set(loading, 'reset:x');
    await redis.hset(buyers, 'u', '1-1');
    await redis.hset(deadBuyers, 'v', '{"orderId":"0-1","reason":"why"}');
    await redis.stockTake(counter, zset, 'a|1', 5000);
    expect(await redis.stockVoid(counter, zset, generation, epoch, loading, buyers, deadBuyers)).toBe(1);
    expect(await redis.exists(counter, zset, epoch, loading, buyers, deadBuyers)).toBe(0);
    expect(await redis.get(generation)).toBe('1');
  });

  it('stock-reconcile: sets the counter only with nothing in flight, nothing moved and no reset since', async () => {
    const { counter, reservations: zset, generation } = stockKeys(couponId);
    const orders = `${counter}:orders`;
    const reconcile = (seen: string, generationSeen: string, ofRecord: number) =>
      redis.stockReconcile(counter, zset, orders, generation, seen, generationSeen, ofRecord);
    expect(await reconcile('', '0', 5)).toBe(-2);
    await redis.set(counter, 7);
    expect(await reconcile('6', '0', 5)).toBe(-1);
    expect(await reconcile('7', '0', 7)).toBe(0);
    await redis.zadd(zset, Date.now() + 5000, 'a|1');
    expect(await reconcile('7', '0', 5)).toBe(-1);
    await redis.zrem(zset, 'a|1');
    const orderId = await redis.xadd(orders, '*', 'user', 'b');
    expect(await reconcile('7', '0', 5)).toBe(-1); // a redis-stream order not yet in the database
    await redis.xdel(orders, orderId!);
    await redis.incr(generation); // a reset came between the caller's reads and this call
    expect(await reconcile('7', '0', 5)).toBe(-1);
    expect(await redis.get(counter)).toBe('7');
    expect(await reconcile('7', '1', 5)).toBe(1);
    expect(await redis.get(counter)).toBe('5');
  });
});

describe('RedisStock', () => {
  it('sells exactly the stock to 200 concurrent buyers, leaves Redis equal to the database and no reservation', async () => {
    const db = records(50);
    const stock = new RedisStock(redis, db);
    const answers = await Promise.allSettled(Array.from({ length: 200 }, (_, i) => stock.take(req(`u${i}`))));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(50);
    const soldOut = answers.filter(
      (a) => a.status === 'rejected' && (a.reason as { code: string }).code === 'STOCK.SOLD_OUT',
    );
    expect(soldOut).toHaveLength(150);
    expect(db.stock).toBe(0);
    expect(await stock.counter(couponId)).toBe(0);
    expect(await reservations()).toEqual({});
  });

  it('gives the unit back when the persist fails, so Redis and the database still agree', async () => {
    let failing = true;
    const db = records(3, () => (failing ? new StockUnavailableError() : null));
    const stock = new RedisStock(redis, db);
    await expect(stock.take(req('a'))).rejects.toMatchObject({ code: 'STOCK.UNAVAILABLE' });
    expect(await stock.counter(couponId)).toBe(3);
    expect(await reservations()).toEqual({});
    failing = false;
    await expect(stock.take(req('a'))).resolves.toMatchObject({ remaining: 2 });
    expect(await stock.counter(couponId)).toBe(2);
  });

  it('never oversells when the counter is too high: the database refuses and the unit goes back', async () => {
    const db = records(1);
    await redis.set(stockKeys(couponId).counter, 5); // e.g. reloaded while reservations were in flight
    const stock = new RedisStock(redis, db);
    const answers = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => stock.take(req(`v${i}`))));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    expect(db.stock).toBe(0);
    expect(await stock.counter(couponId)).toBe(4);
  });

  it('never keeps a counter loaded from stock read before a reset that cleared it', async () => {
    const db = records(0); // sold out
    let reset: (() => Promise<void>) | undefined = () =>
      stock.reset(couponId, () => {
        db.stock = 10;
        return Promise.resolve();
      });
    const stock: RedisStock = new RedisStock(redis, {
      ...db,
      // The load reads the stock, then the reset commits and clears Redis before the load sets it.
      loadCounter: async () => {
        const read = await db.loadCounter();
        const during = reset;
        reset = undefined;
        await during?.();
        return read;
      },
    });
    await expect(stock.take(req('after-reset'))).resolves.toMatchObject({ remaining: 9 });
    expect(await stock.counter(couponId)).toBe(9);
  });

  it('takes nothing while a reset runs: the next take waits for it and loads the new stock', async () => {
    const db = records(3);
    const stock = new RedisStock(redis, db);
    await stock.take(req('before'));
    let taken = false;
    let later: Promise<unknown> | undefined;
    await stock.reset(couponId, async () => {
      await redis.del(stockKeys(couponId).counter); // as a Redis restart would, mid-reset
      later = stock.take(req('during')).finally(() => (taken = true));
      await new Promise((r) => setTimeout(r, 100));
      expect(taken).toBe(false);
      db.stock = 7;
    });
    await expect(later).resolves.toMatchObject({ remaining: 6 });
    expect(await stock.counter(couponId)).toBe(6);
  });

  it('runs afterReserve once the unit is reserved, before the database write', async () => {
    const db = records(2);
    const stock = new RedisStock(redis, db);
    const stockOfRecordThen: number[] = [];
    const counterBefore = await redis.get(stockKeys(couponId).counter);
    await stock.take(req('a'), { afterReserve: () => stockOfRecordThen.push(db.stock) });
    expect(counterBefore).toBeNull();
    expect(stockOfRecordThen).toEqual([2]);
    expect(db.stock).toBe(1);
  });
});

describe('RedisStock after Redis lost writes (a failover)', () => {
  const soldOut = { code: 'STOCK.SOLD_OUT' };

  /** The same Redis, but the answers of the next `count` takes are lost after their scripts ran. */
  function losingTakeAnswers(count: number): Redis {
    let toLose = count;
    return new Proxy(redis, {
      get(target, property) {
        if (property === 'stockTake')
          return async (...args: Parameters<Redis['stockTake']>) => {
            const answer = await target.stockTake(...args);
            if (toLose-- > 0) throw new Error('Connection is closed.');
            return answer;
          };
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  it('serves grabs again once a counter left below the stock of record, nothing in flight, is found out', async () => {
    const db = records(5);
    const stock = new RedisStock(redis, db);
    await stock.take(req('a')); // counter 4, stock of record 4
    await redis.decrby(stockKeys(couponId).counter, 3); // three give-backs the promoted replica never had
    const answers = await Promise.allSettled(['b', 'c', 'd', 'e', 'f'].map((u) => stock.take(req(u))));
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    expect(answers[4]).toMatchObject({ reason: soldOut });
    expect(db.stock).toBe(0);
    expect(await stock.counter(couponId)).toBe(0);
    expect(await reservations()).toEqual({});
  });

  it('gives back the reservations of takes whose answers were lost, once sold out', async () => {
    const db = records(3);
    await redis.stockLoad(stockKeys(couponId).counter, 3);
    const stock = new RedisStock(losingTakeAnswers(2), db);
    await expect(stock.take(req('a'))).rejects.toMatchObject({ code: 'STOCK.UNAVAILABLE' });
    await expect(stock.take(req('b'))).rejects.toMatchObject({ code: 'STOCK.UNAVAILABLE' });
    expect(Object.keys(await reservations())).toHaveLength(2); // reserved in Redis, never persisted
    await expect(stock.take(req('c'))).resolves.toMatchObject({ remaining: 2 });
    await expect(stock.take(req('d'))).resolves.toMatchObject({ remaining: 1 });
    await expect(stock.take(req('e'))).resolves.toMatchObject({ remaining: 0 });
    await expect(stock.take(req('f'))).rejects.toMatchObject(soldOut);
    expect(db.stock).toBe(0);
    expect(await stock.counter(couponId)).toBe(0);
    expect(await reservations()).toEqual({});
  });

  it('never raises the counter while a reservation or a redis-stream order is in flight', async () => {
    const db = records(5);
    const { counter, reservations: zset } = stockKeys(couponId);
    await redis.set(counter, 0);
    const [seconds] = await redis.time();
    // Another process reserved the last unit; its persist may still commit.
    await redis.zadd(zset, Number(seconds) * 1000 + 60_000, 'persisting|x');
    await expect(new RedisStock(redis, db).take(req('a'))).rejects.toMatchObject(soldOut);
    expect(await redis.get(counter)).toBe('0');
    await redis.zrem(zset, 'persisting|x');
    const orderId = await redis.xadd(`${counter}:orders`, '*', 'user', 'queued'); // accepted, not yet persisted
    await expect(new RedisStock(redis, db).take(req('b'))).rejects.toMatchObject(soldOut);
    expect(await redis.get(counter)).toBe('0');
    // Once nothing is in flight, another process's check repairs it: the refusals were not by chance.
    await redis.xdel(`${counter}:orders`, orderId!);
    await expect(new RedisStock(redis, db).take(req('c'))).resolves.toMatchObject({ remaining: 4 });
    expect(await redis.get(counter)).toBe('4');
  });

  it('checks a coupon at most once per interval per process', async () => {
    const db = records(5);
    await redis.set(stockKeys(couponId).counter, 0);
    let reads = 0;
    const stock = new RedisStock(redis, { ...db, currentStock: () => ((reads += 1), Promise.resolve(0)) });
    const answers = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => stock.take(req(`s${i}`))));
    expect(answers.every((a) => a.status === 'rejected')).toBe(true);
    expect(reads).toBe(1);
  });
});

describe('reconcileStock', () => {
  /** A reservation left as by a replica that died after reserving: past its deadline, never persisted. */
  async function strand(userId: string, deadlineMs: number): Promise<void> {
    const { counter, reservations: zset } = stockKeys(couponId);
    await redis.decr(counter);
    await redis.zadd(zset, deadlineMs, `${userId}|x`);
  }

  it('gives back a stranded unit, settles a lost answer, and leaves one in flight alone', async () => {
    const db = records(4);
    const stock = new RedisStock(redis, db);
    await stock.take(req('sold')); // stock 3, counter 3
    const [seconds] = await redis.time();
    const past = Number(seconds) * 1000 - 1000;
    await strand('stranded', past); // counter 2: a unit nobody holds
    await redis.zadd(stockKeys(couponId).reservations, past, 'answered|y'); // granted, its answer lost
    db.granted.add('answered');
    await strand('persisting', past + 60_000); // counter 1: still in flight
    const report = await reconcileStock(redis, couponId, db);
    expect(report.reservations).toEqual({ inFlight: 1, settled: 1, returned: 1 });
    expect(report.counter).toBe('busy');
    expect(await stock.counter(couponId)).toBe(2);
    expect(Object.keys(await reservations())).toEqual(['persisting|x']);
    // Run again: the stranded unit is not returned twice.
    expect((await reconcileStock(redis, couponId, db)).reservations.returned).toBe(0);
  });

  it('sets the counter to the stock of record when nothing is in flight', async () => {
    const db = records(4);
    await redis.set(stockKeys(couponId).counter, 9);
    const report = await reconcileStock(redis, couponId, db);
    expect(report).toMatchObject({ counter: 'repaired', counterBefore: 9, counterAfter: 4, stockOfRecord: 4 });
    expect((await reconcileStock(redis, couponId, db)).counter).toBe('in step');
  });
});
