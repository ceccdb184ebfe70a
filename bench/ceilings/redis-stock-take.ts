import { Redis } from 'ioredis';
import { defineStockCommands } from '@app/stock';
import { rateInFlight } from './in-flight';

/** The stock-take Lua script straight from ioredis, on counters of the bench's own. */
export class RedisCeiling {
  private readonly redis: Redis;

  constructor(redisUrl: string) {
    this.redis = new Redis(redisUrl);
    defineStockCommands(this.redis);
  }

  async rate(key: string, amount: number, inFlight: number): Promise<number> {
    await this.redis.stockLoad(key, amount);
    try {
      return await rateInFlight(amount, inFlight, async () => {
        if ((await this.redis.stockTake(key)) < 0) throw new Error(`${key} ran dry`);
      });
    } finally {
      await this.redis.del(key);
    }
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
