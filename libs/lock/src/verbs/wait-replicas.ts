import type { Redis } from 'ioredis';

/**
 * WAIT numreplicas timeout: how many replicas acknowledged this connection's writes so far.
 * It must run on the connection that wrote the lock (WAIT counts that client's own writes).
 */
export function waitReplicas(redis: Redis, replicas: number, timeoutMs: number): Promise<number> {
  return redis.wait(replicas, timeoutMs);
}
