import type { ClusterRedis } from '../../tools/stack/redis/cluster-redis';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __redisTestCluster?: ClusterRedis }).__redisTestCluster?.stop();
}
