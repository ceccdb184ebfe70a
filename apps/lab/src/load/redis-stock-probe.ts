import type { Redis } from 'ioredis';
import { awaitOrderDrain, orderKeys } from '@app/redis-stock';

/** Redis's side of a coupon's stock, read from Redis itself: the counter buyers are promised, and orders not yet persisted. */
export class RedisStockProbe {
  constructor(private readonly redis: Redis) {}

  /** The counter, or null while no grab has loaded it. */
  async counter(couponId: number): Promise<number | null> {
    const value = await this.redis.get(orderKeys(couponId).counter);
    return value === null ? null : Number(value);
  }

  /** Waits until the coupon's order stream is empty (every accepted order persisted), at most `timeoutMs`. */
  async drain(couponId: number, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
    return (await awaitOrderDrain(this.redis, couponId, { timeoutMs, signal })).drained;
  }
}
