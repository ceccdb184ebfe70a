import type { Redis } from 'ioredis';
import { connectRedis } from '@app/lock';
import { defineStockCommands, stockKeys } from '@app/redis-stock';
import { rateInFlight } from './in-flight';

/** The stock-take Lua script straight from ioredis, on counters of the bench's own. */
export class RedisCeiling {
  private readonly redis: Redis;

  /** On a cluster (`clusterUrls`), a Cluster client: the counter's slot may be on any master. */
  constructor(redisUrl: string, clusterUrls?: readonly string[]) {
    const retryStrategy = (attempt: number) => Math.min(50 * attempt, 1000);
    this.redis = connectRedis(clusterUrls?.length ? { kind: 'cluster', nodeUrls: clusterUrls } : redisUrl, {
      retryStrategy,
    });
    defineStockCommands(this.redis);
  }

  /** `amount` takes, each recording its reservation as a grab's does, on a coupon id of the bench's own. */
  async rate(couponId: number, amount: number, inFlight: number): Promise<number> {
    const keys = stockKeys(couponId);
    await this.redis.stockLoad(keys.counter, amount);
    try {
      return await rateInFlight(amount, inFlight, async (i) => {
        if ((await this.redis.stockTake(keys.counter, keys.reservations, `ceiling|${i}`, 30_000)) < 0) {
          throw new Error(`${keys.counter} ran dry`);
        }
      });
    } finally {
      await this.redis.del(keys.counter, keys.reservations);
    }
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
