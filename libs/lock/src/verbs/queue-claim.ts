import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import type { QueueLockKind } from './queue-acquire';

/**
 * queue-claim.lua: true when the lock a release handed `owner` is still its own and of its kind
 * (its full lease is set now), false when it is not.
 */
export async function queueClaim(
  redis: Redis,
  keys: LockKeys,
  kind: QueueLockKind,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  return (await redis.lockQueueClaim(keys.lock, owner, leaseMs, kind.hash ? 'hash' : 'string')) === 1;
}
