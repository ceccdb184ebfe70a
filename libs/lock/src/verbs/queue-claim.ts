import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import type { QueueLockKind } from './queue-acquire';
import { renewReentrant } from './renew-reentrant';

/**
 * queue-claim.lua (reentrant-renew.lua for a hash lock): true when the lock a release handed
 * `owner` is still its own and of its kind (its full lease is set now), false when it is not.
 */
export async function queueClaim(
  redis: Redis,
  keys: LockKeys,
  kind: QueueLockKind,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  // A hash lock's claim is what the watchdog's renewal does: extend it while it names us.
  if (kind.hash) return renewReentrant(redis, keys, owner, leaseMs);
  return (await redis.lockQueueClaim(keys.lock, owner, leaseMs)) === 1;
}
