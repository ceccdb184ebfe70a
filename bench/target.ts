import { connectRedis } from '@app/lock';
import { awaitOrderDrain } from '@app/redis-stock';
import { DEFAULT_POOL_SIZE } from '../tools/stack/config';
import type { StackInfo } from '../tools/stack/stack';

/** Where the load goes, and what the ceilings measure against: the stack as stack.json describes it. */
export interface BenchTarget {
  readonly nginxUrl: string;
  readonly replicaUrls: readonly string[];
  readonly adminToken: string;
  readonly databaseUrl: string;
  readonly redisUrl: string;
  /** Every node, when the stack runs on a Redis Cluster (the segmented run then counts commands per master). */
  readonly redisClusterUrls?: readonly string[];
  /** The replicas' PostgreSQL pools together. */
  readonly databasePoolTotal: number;
}

type StackFields = Pick<StackInfo, 'nginxUrl' | 'replicas' | 'adminToken' | 'databaseUrl' | 'redisUrl'> &
  Partial<Pick<StackInfo, 'databasePoolSize' | 'redisClusterUrls'>>;

export function targetOf(info: StackFields): BenchTarget {
  return {
    nginxUrl: info.nginxUrl,
    replicaUrls: info.replicas.map((r) => r.url),
    adminToken: info.adminToken,
    databaseUrl: info.databaseUrl,
    redisUrl: info.redisUrl,
    redisClusterUrls: info.redisClusterUrls,
    databasePoolTotal: (info.databasePoolSize ?? DEFAULT_POOL_SIZE) * info.replicas.length,
  };
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
