import { resolve } from 'node:path';
import { ClusterRedis } from '../../tools/stack/redis/cluster-redis';
import { redisUrl } from '../../tools/stack/redis/redis-nodes';
import { testPort } from '../ports';

// One private Redis Cluster (three masters, a replica each) for the cluster project, made the
// way the stack makes its own; the specs reach it through the kit's REDIS_TEST_CLUSTER_URLS.
export default async function globalSetup(): Promise<void> {
  const nodes = Array.from({ length: 6 }, (_, i) => testPort(22301) + i);
  const bus = nodes.map((p) => p + 100);
  const cluster = new ClusterRedis({ nodes, bus }, resolve(`.stack/redis-test-cluster-${nodes[0]}`), () => undefined);
  await cluster.start(() => undefined);
  process.env.REDIS_TEST_CLUSTER_URLS = nodes.map(redisUrl).join(',');
  process.env.REDIS_TEST_URL = redisUrl(nodes[0]);
  (globalThis as { __redisTestCluster?: ClusterRedis }).__redisTestCluster = cluster;
}
