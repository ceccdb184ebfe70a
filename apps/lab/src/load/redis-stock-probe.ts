import type { Redis } from 'ioredis';
import { orderKeys } from '@app/redis-stock';
import { setTimeout as sleep } from 'node:timers/promises';

/** How often a drain is checked. */
const DRAIN_POLL_MS = 50;

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
    const deadline = Date.now() + timeoutMs;
    while (!signal.aborted && Date.now() < deadline) {
      if ((await this.redis.xlen(orderKeys(couponId).orders)) === 0) return true;
      await sleep(DRAIN_POLL_MS, undefined, { signal }).catch(() => undefined);
    }
    return false;
  }
}
