import { connectRedis } from '@app/lock';
import { awaitOrderDrain, type DrainedStream } from '@app/redis-stock';

/** Where the stack's Redis answers: one server, or every node of a cluster. */
export interface RedisAddress {
  readonly redisUrl: string;
  readonly redisClusterUrls?: readonly string[];
}

/** A connection of its own to the stack's Redis (the caller quits it). */
export function connectStackRedis(address: RedisAddress) {
  const cluster = address.redisClusterUrls;
  return connectRedis(cluster?.length ? { kind: 'cluster', nodeUrls: cluster } : address.redisUrl, {
    retryStrategy: (attempt: number) => Math.min(50 * attempt, 1000),
  });
}

/** Waits for the coupon's order stream to drain on the stack's Redis, on a connection of its own. */
export async function awaitDrain(address: RedisAddress, couponId: number, timeoutMs = 30_000): Promise<DrainedStream> {
  const redis = connectStackRedis(address);
  try {
    return await awaitOrderDrain(redis, couponId, { timeoutMs });
  } finally {
    await redis.quit();
  }
}
