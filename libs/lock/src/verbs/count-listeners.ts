import type { Redis } from 'ioredis';
import { asCluster } from '../redis/redis-target';

/**
 * PUBSUB SHARDNUMSUB: how many connections (one per waiting process) listen on a wake-up shard
 * channel. A cluster answers per node (a shard channel's subscribers sit on the node serving its
 * slot), so there the counts are summed.
 */
export async function countListeners(redis: Redis, channel: string): Promise<number> {
  const nodes = asCluster(redis)?.nodes('all') ?? [redis];
  const counts = await Promise.all(
    nodes.map(async (node) => Number(((await node.pubsub('SHARDNUMSUB', channel)) as [string, number | string])[1])),
  );
  return counts.reduce((a, b) => a + b, 0);
}
