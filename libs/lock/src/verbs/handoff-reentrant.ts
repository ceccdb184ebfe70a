import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';

/** reentrant-handoff.lua: true when `owner`'s single hold now belongs to `nextOwner`. */
export async function handOffReentrant(redis: Redis, keys: LockKeys, owner: string, nextOwner: string, leaseMs: number): Promise<boolean> {
  return (await redis.lockReentrantHandoff(keys.lock, owner, nextOwner, leaseMs)) === 1;
}
