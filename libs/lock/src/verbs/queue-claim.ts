import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';

/**
 * queue-claim.lua: true when the lock a release handed `owner` is still its own (its full lease
 * is set now), false when it is not any more.
 */
export async function queueClaim(redis: Redis, keys: LockKeys, owner: string, leaseMs: number): Promise<boolean> {
  return (await redis.lockQueueClaim(keys.lock, owner, leaseMs)) === 1;
}
