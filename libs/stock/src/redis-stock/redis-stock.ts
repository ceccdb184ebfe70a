import type Redis from 'ioredis';
import { SoldOutError, StockUnavailableError } from '../stock.errors';
import type { Granted, GrantRequest } from '../deduction/deduction.types';
import { defineStockCommands, stockKey } from './redis-stock-commands';

/** What the database side must offer: the current stock and a conditional, atomic persist. */
export interface StockOfRecord {
  currentStock(couponId: number): Promise<number>;
  /** Decrements the database stock and writes the grant in one transaction; null if it had none. */
  persist(req: GrantRequest): Promise<Granted | null>;
}

/**
 * Stock pre-deducted in Redis by a Lua script, the grant then persisted in PostgreSQL. Redis is a
 * fast filter that turns the sold-out crowd away without touching the database; the database's
 * conditional decrement stays the final word, so a Redis counter that is too high (reloaded after
 * a restart while reservations were in flight) can never oversell. Every reservation whose persist
 * fails is given back.
 */
export class RedisStock {
  constructor(
    private readonly redis: Redis,
    private readonly records: StockOfRecord,
  ) {
    defineStockCommands(redis);
  }

  async take(req: GrantRequest): Promise<Granted> {
    const key = stockKey(req.couponId);
    let left = await this.redisCall(() => this.redis.stockTake(key));
    if (left === -2) {
      const fromDatabase = await this.records.currentStock(req.couponId);
      await this.redisCall(() => this.redis.stockLoad(key, fromDatabase));
      left = await this.redisCall(() => this.redis.stockTake(key));
    }
    if (left < 0) throw new SoldOutError(req.couponId);
    let granted: Granted | null;
    try {
      granted = await this.records.persist(req);
    } catch (error) {
      await this.giveBack(key);
      throw error;
    }
    if (!granted) {
      await this.giveBack(key);
      throw new SoldOutError(req.couponId);
    }
    return granted;
  }

  /** The counter as Redis holds it, or null when it is not loaded. */
  async counter(couponId: number): Promise<number | null> {
    const value = await this.redis.get(stockKey(couponId));
    return value === null ? null : Number(value);
  }

  private async redisCall<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw new StockUnavailableError({ cause: error });
    }
  }

  private async giveBack(key: string): Promise<void> {
    // If Redis is down too, the unit stays reserved: the counter undersells until the next reset
    // or reload, which is the safe side.
    await this.redis.stockGiveBack(key).catch(() => undefined);
  }
}
