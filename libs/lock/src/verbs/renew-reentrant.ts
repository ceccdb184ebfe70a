import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';

/** reentrant-renew.lua: true when the lease was extended, false when the lock is not ours any more. */
export async function renewReentrant(redis: Redis, keys: LockKeys, owner: string, leaseMs: number): Promise<boolean> {
  return (await redis.lockReentrantRenew(keys.lock, owner, leaseMs)) === 1;
}
