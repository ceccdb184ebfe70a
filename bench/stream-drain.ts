import { connectRedis } from '@app/lock';
import { orderKeys } from '@app/redis-stock';
import type { BenchTarget } from './target';

/**
 * Waits until the coupon's order stream is empty (every accepted order persisted or dead-lettered),
 * at most `timeoutMs`; the verdict is judged after, drained or not. True when it drained.
 */
export async function awaitDrain(target: BenchTarget, couponId: number, timeoutMs = 30_000): Promise<boolean> {
  const cluster = target.redisClusterUrls;
  const redis = connectRedis(cluster?.length ? { kind: 'cluster', nodeUrls: cluster } : target.redisUrl, {
    retryStrategy: (attempt: number) => Math.min(50 * attempt, 1000),
  });
  const deadline = Date.now() + timeoutMs;
  try {
    while ((await redis.xlen(orderKeys(couponId).orders)) > 0) {
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return true;
  } finally {
    await redis.quit();
  }
}
