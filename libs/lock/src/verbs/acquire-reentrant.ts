import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import type { Attempt } from './attempt';

/** reentrant-acquire.lua: nil when acquired or re-entered, else the holder's PTTL. */
export async function acquireReentrant(redis: Redis, keys: LockKeys, owner: string, leaseMs: number): Promise<Attempt> {
  const holderTtlMs = await redis.lockReentrantAcquire(keys.lock, owner, leaseMs);
  return holderTtlMs === null ? { acquired: true } : { acquired: false, holderTtlMs };
}
