import type { Redis } from 'ioredis';
import { asCluster } from './redis-target';

/**
 * Replicas an `INFO replication` answer lists as online: synced and streaming, the only ones that
 * acknowledge a WAIT. One still waiting for its first full sync (`wait_bgsave`, `send_bulk`) does not.
 */
export function onlineReplicasIn(info: string): number {
  return info.split(/\r?\n/).filter((line) => /^slave\d+:.*\bstate=online\b/.test(line)).length;
}

/**
 * Online replicas of the primary this client writes to; on a cluster, of the master with the
 * fewest, since a lock may live on any of them. A server that is itself a replica has none.
 */
export async function onlineReplicas(redis: Redis): Promise<number> {
  const cluster = asCluster(redis);
  const masters = cluster ? cluster.nodes('master') : [redis];
  if (!masters.length) return 0;
  const counts = await Promise.all(masters.map(async (m) => onlineReplicasIn(await m.info('replication'))));
  return Math.min(...counts);
}
