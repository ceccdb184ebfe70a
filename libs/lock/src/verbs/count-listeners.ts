import type { Redis } from 'ioredis';
import { asCluster } from '../redis/redis-target';

/**
 * PUBSUB NUMSUB: how many connections (one per waiting process) listen on a wake-up channel. A
 * cluster answers per node (each subscriber sits on one node), so there the counts are summed.
 */
export async function countListeners(redis: Redis, channel: string): Promise<number> {
  const nodes = asCluster(redis)?.nodes('all') ?? [redis];
  const counts = await Promise.all(
    nodes.map(async (node) => Number(((await node.pubsub('NUMSUB', channel)) as [string, number | string])[1])),
  );
  return counts.reduce((a, b) => a + b, 0);
}
