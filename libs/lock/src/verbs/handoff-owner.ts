import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import type { Handover } from './attempt';

/**
 * owner-handoff.lua: `nextOwner` holds the lock now if `owner` still did. A lease of 0 keeps the
 * key without expiry (setnx's kind of lock).
 */
export async function handOffOwner(
  redis: Redis,
  keys: LockKeys,
  owner: string,
  nextOwner: string,
  leaseMs: number,
): Promise<Handover> {
  return { handed: (await redis.lockOwnerHandoff(keys.lock, owner, nextOwner, leaseMs)) === 1 };
}
