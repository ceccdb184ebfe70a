import { connectRedis } from '@app/lock';
import { awaitOrderDrain } from '@app/redis-stock';
import { DEFAULT_POOL_SIZE } from '../tools/stack/config';
import type { StackInfo } from '../tools/stack/stack';

export type BenchTarget = ReturnType<typeof targetOf>;

type StackFields = Pick<StackInfo, 'nginxUrl' | 'replicas' | 'adminToken' | 'databaseUrl' | 'redisUrl'> &
  Partial<Pick<StackInfo, 'databasePoolSize' | 'redisClusterUrls'>>;

/** Where the load goes, and what the ceilings measure against: the stack as stack.json describes it. */
export function targetOf(info: StackFields) {
  const { nginxUrl, adminToken, databaseUrl, redisUrl, redisClusterUrls } = info;
  const replicaUrls = info.replicas.map((r) => r.url);
  // The replicas' PostgreSQL pools together.
  const databasePoolTotal = (info.databasePoolSize ?? DEFAULT_POOL_SIZE) * replicaUrls.length;
  return { nginxUrl, adminToken, databaseUrl, redisUrl, redisClusterUrls, replicaUrls, databasePoolTotal };
}

/** A connection to the target's Redis (every node, on a cluster), riding out a restart. */
export function connectTargetRedis(target: Pick<BenchTarget, 'redisUrl' | 'redisClusterUrls'>) {
  const cluster = target.redisClusterUrls;
  return connectRedis(cluster?.length ? { kind: 'cluster', nodeUrls: cluster } : target.redisUrl, {
    retryStrategy: (attempt: number) => Math.min(50 * attempt, 1000),
  });
}

/** Waits for the coupon's accepted orders to become grants (or 30 s to pass). */
export async function drainOrders(target: BenchTarget, couponId: number): Promise<void> {
  const redis = connectTargetRedis(target);
  await awaitOrderDrain(redis, couponId, { timeoutMs: 30_000 }).finally(() => redis.quit());
}
