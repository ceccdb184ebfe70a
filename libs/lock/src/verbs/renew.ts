import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';

/** renew.lua: true when the lease was extended, false when the lock is not ours any more. */
export async function renew(redis: Redis, keys: LockKeys, owner: string, leaseMs: number): Promise<boolean> {
  return (await redis.lockRenew(keys.lock, owner, leaseMs)) === 1;
}
