import { connectRedis } from '@app/lock';
import { awaitOrderDrain, type DrainedStream } from '@app/redis-stock';

/** Where the stack's Redis answers: one server, or every node of a cluster. */
export interface RedisAddress {
  readonly redisUrl: string;
  readonly redisClusterUrls?: readonly string[];
}

/** Waits for the coupon's order stream to drain on the stack's Redis, on a connection of its own. */
export async function awaitDrain(address: RedisAddress, couponId: number, timeoutMs = 30_000): Promise<DrainedStream> {
  const cluster = address.redisClusterUrls;
  const redis = connectRedis(cluster?.length ? { kind: 'cluster', nodeUrls: cluster } : address.redisUrl, {
    retryStrategy: (attempt: number) => Math.min(50 * attempt, 1000),
  });
  try {
    return await awaitOrderDrain(redis, couponId, { timeoutMs });
  } finally {
    await redis.quit();
  }
}
