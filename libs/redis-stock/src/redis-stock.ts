import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { SoldOutError, type CounterLoad, type Granted, type GrantRequest } from '@app/stock';
import { withLoadedCounter } from './counter-loading';
import { resetCounter } from './counter-reset';
import type { StockLedger } from './reconcile';
import { defineStockCommands, RESERVATION_MS, reservationId, stockKeys, type StockKeys } from './redis-stock-commands';
import { SoldOutCheck } from './sold-out-check';

/**
 * What the database side must offer: the current stock, who holds grants (to reconcile a counter
 * that says sold out too early) and a conditional, atomic persist.
 */
export interface StockOfRecord extends StockLedger {
  /** Starts a new counter epoch and reads what to load Redis's counter with. */
  loadCounter(couponId: number): Promise<CounterLoad>;
  /** Decrements the database stock and writes the grant in one transaction; null if it had none. */
  persist(req: GrantRequest): Promise<Granted | null>;
}

export interface TakeOptions {
  /** Runs once the unit is reserved in Redis, before the database write (a chaos crash point). */
  readonly afterReserve?: () => void;
}

/**
 * Stock pre-deducted in Redis by a Lua script, the grant then persisted in PostgreSQL. Redis is a
 * fast filter that turns the sold-out crowd away without touching the database; the database's
 * conditional decrement stays the final word, so a Redis counter that is too high (reloaded after
 * a restart while reservations were in flight) can never oversell. Each reservation is recorded
 * with a deadline: a persist that fails gives its unit back, and one that never ends (its replica
 * died) is found by reconciliation once the deadline has passed. A sold-out answer while the
 * stock of record has units left is checked and repaired (see SoldOutCheck), then tried once more.
 */
export class RedisStock {
  private readonly soldOutCheck: SoldOutCheck;

  constructor(
    private readonly redis: Redis,
    private readonly records: StockOfRecord,
  ) {
    defineStockCommands(redis);
    this.soldOutCheck = new SoldOutCheck(redis, records);
  }

  async take(req: GrantRequest, options: TakeOptions = {}): Promise<Granted> {
    const keys = stockKeys(req.couponId);
    const id = reservationId(req.userId, randomBytes(6).toString('hex'));
    let left = await this.reserve(req.couponId, keys, id);
    if (left < 0 && (await this.soldOutCheck.recovered(req.couponId)))
      left = await this.reserve(req.couponId, keys, id);
    if (left < 0) throw new SoldOutError(req.couponId);
    options.afterReserve?.();
    let granted: Granted | null;
    try {
      granted = await this.records.persist(req);
    } catch (error) {
      await this.giveBack(keys, id);
      throw error;
    }
    if (!granted) {
      await this.giveBack(keys, id);
      throw new SoldOutError(req.couponId);
    }
    // Settled. Not awaited: the grant is committed, so the answer need not wait a Redis round trip
    // for bookkeeping (db-atomic answers right after its commit too). A failure only leaves the
    // reservation for reconciliation, which finds the grant and settles it.
    void this.redis.zrem(keys.reservations, id).catch(() => undefined);
    return granted;
  }

  /**
   * Runs the coupon's reset in the database (`reset`) with Redis's counter held, then drops the
   * counter, its epoch, reservations and buyers: see resetCounter.
   */
  reset<T>(couponId: number, reset: () => Promise<T>): Promise<T> {
    return resetCounter(this.redis, couponId, reset);
  }

  /** The counter as Redis holds it, or null when it is not loaded. */
  async counter(couponId: number): Promise<number | null> {
    const value = await this.redis.get(stockKeys(couponId).counter);
    return value === null ? null : Number(value);
  }

  private async reserve(couponId: number, keys: StockKeys, id: string): Promise<number> {
    try {
      return await withLoadedCounter(
        this.redis,
        couponId,
        (coupon) => this.records.loadCounter(coupon),
        () => this.redis.stockTake(keys.counter, keys.reservations, id, RESERVATION_MS),
      );
    } catch (error) {
      // The script may have run and only its answer been lost (a failover): this process alone
      // knows that reservation will never be persisted.
      this.soldOutCheck.unansweredTake(couponId, id);
      throw error;
    }
  }

  private async giveBack(keys: StockKeys, id: string): Promise<void> {
    // If Redis is down too, the reservation stays recorded: reconciliation returns it later.
    await this.redis.stockGiveBack(keys.counter, keys.reservations, id).catch(() => undefined);
  }
}
