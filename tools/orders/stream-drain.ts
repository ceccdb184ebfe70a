import { connectRedis } from '@app/lock';
import { orderKeys } from '@app/redis-stock';

/** Where the stack's Redis answers: one server, or every node of a cluster. */
export interface RedisAddress {
  readonly redisUrl: string;
  readonly redisClusterUrls?: readonly string[];
}

/** What Redis holds of a coupon's orders once the wait for the drain ended. */
export interface DrainedStream {
  /** The order stream emptied: every accepted order persisted or dead-lettered. */
  readonly drained: boolean;
  /** Redis's stock counter; null when absent (never loaded, or lost with Redis). */
  readonly counter: number | null;
  /** Orders moved to the dead-letter stream: accepted, never granted. */
  readonly deadLettered: number;
}

/**
 * Waits until the coupon's order stream is empty, at most `timeoutMs`, then reads the counter and
 * the dead letters. Accepted orders are judged after, drained or not.
 */
export async function awaitDrain(address: RedisAddress, couponId: number, timeoutMs = 30_000): Promise<DrainedStream> {
  const cluster = address.redisClusterUrls;
  const redis = connectRedis(cluster?.length ? { kind: 'cluster', nodeUrls: cluster } : address.redisUrl, {
    retryStrategy: (attempt: number) => Math.min(50 * attempt, 1000),
  });
  const keys = orderKeys(couponId);
  const deadline = Date.now() + timeoutMs;
  try {
    let drained = true;
    while ((await redis.xlen(keys.orders)) > 0) {
      if (Date.now() > deadline) {
        drained = false;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [counter, deadLettered] = await Promise.all([redis.get(keys.counter), redis.xlen(keys.dead)]);
    return { drained, counter: counter === null ? null : Number(counter), deadLettered };
  } finally {
    await redis.quit();
  }
}
