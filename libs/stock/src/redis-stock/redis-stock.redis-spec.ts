import Redis from 'ioredis';
import { StockUnavailableError } from '../stock.errors';
import type { Granted, GrantRequest } from '../deduction/deduction.types';
import { defineStockCommands, stockKey } from './redis-stock-commands';
import { RedisStock, type StockOfRecord } from './redis-stock';

const redis = new Redis(process.env.REDIS_TEST_URL!);
defineStockCommands(redis);
let couponId = 1000 + Math.floor(Math.random() * 1_000_000);
const req = (userId: string): GrantRequest => ({ couponId, userId, strategy: 'redis-lua', replica: 'spec' });

/** An in-memory stand-in for PostgreSQL: only the database side is replaced, Redis is real. */
function records(stock: number, fail?: () => Error | null): StockOfRecord & { stock: number } {
  const db = {
    stock,
    currentStock: () => Promise.resolve(db.stock),
    persist: (): Promise<Granted | null> => {
      const error = fail?.();
      if (error) return Promise.reject(error);
      if (db.stock <= 0) return Promise.resolve(null);
      db.stock -= 1;
      return Promise.resolve({ segment: 0, remaining: db.stock });
    },
  };
  return db;
}

afterAll(() => redis.quit());
beforeEach(() => {
  couponId += 1;
});

describe('stock Lua scripts on a real Redis', () => {
  it('stock-take: -2 when not loaded, decrements while positive, -1 at zero', async () => {
    const key = stockKey(couponId);
    expect(await redis.stockTake(key)).toBe(-2);
    expect(await redis.stockLoad(key, 2)).toBe(1);
    expect(await redis.stockLoad(key, 99)).toBe(0);
    expect(await redis.stockTake(key)).toBe(1);
    expect(await redis.stockTake(key)).toBe(0);
    expect(await redis.stockTake(key)).toBe(-1);
    expect(await redis.get(key)).toBe('0');
  });

  it('stock-give-back: increments a loaded counter, refuses to create one', async () => {
    const key = stockKey(couponId);
    expect(await redis.stockGiveBack(key)).toBe(-2);
    expect(await redis.exists(key)).toBe(0);
    await redis.stockLoad(key, 0);
    expect(await redis.stockGiveBack(key)).toBe(1);
  });
});

describe('RedisStock', () => {
  it('sells exactly the stock to 200 concurrent buyers and leaves Redis equal to the database', async () => {
    const db = records(50);
    const stock = new RedisStock(redis, db);
    const answers = await Promise.allSettled(Array.from({ length: 200 }, (_, i) => stock.take(req(`u${i}`))));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(50);
    expect(
      answers.filter((a) => a.status === 'rejected' && (a.reason as { code: string }).code === 'STOCK.SOLD_OUT'),
    ).toHaveLength(150);
    expect(db.stock).toBe(0);
    expect(await stock.counter(couponId)).toBe(0);
  });

  it('gives the unit back when the persist fails, so Redis and the database still agree', async () => {
    let failing = true;
    const db = records(3, () => (failing ? new StockUnavailableError() : null));
    const stock = new RedisStock(redis, db);
    await expect(stock.take(req('a'))).rejects.toMatchObject({ code: 'STOCK.UNAVAILABLE' });
    expect(await stock.counter(couponId)).toBe(3);
    failing = false;
    await expect(stock.take(req('a'))).resolves.toMatchObject({ remaining: 2 });
    expect(await stock.counter(couponId)).toBe(2);
  });

  it('never oversells when the counter is too high: the database refuses and the unit goes back', async () => {
    const db = records(1);
    await redis.set(stockKey(couponId), 5); // e.g. reloaded while reservations were in flight
    const stock = new RedisStock(redis, db);
    const answers = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => stock.take(req(`v${i}`))));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    expect(db.stock).toBe(0);
    expect(await stock.counter(couponId)).toBe(4);
  });
});
