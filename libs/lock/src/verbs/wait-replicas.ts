import type { Redis } from 'ioredis';
import { asCluster, masterFor } from '../redis/redis-target';

/**
 * WAIT numreplicas timeout: how many replicas acknowledged this connection's writes so far.
 * It must run on the connection that wrote the lock (WAIT counts that client's own writes): on a
 * cluster, the connection to the master that owns `key`.
 */
export async function waitReplicas(redis: Redis, replicas: number, timeoutMs: number, key?: string): Promise<number> {
  const cluster = asCluster(redis);
  if (cluster && key !== undefined) return (await masterFor(cluster, key)).wait(replicas, timeoutMs);
  return redis.wait(replicas, timeoutMs);
}
