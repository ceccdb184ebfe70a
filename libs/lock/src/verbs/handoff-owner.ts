import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';

/** owner-handoff.lua: true when `owner` still held the lock and `nextOwner` now does. */
export async function handOffOwner(redis: Redis, keys: LockKeys, owner: string, nextOwner: string, leaseMs: number): Promise<boolean> {
  return (await redis.lockOwnerHandoff(keys.lock, owner, nextOwner, leaseMs)) === 1;
}
