import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import type { Handover } from './attempt';

/** fenced-handoff.lua: `nextOwner` holds the lock with the next fencing token, if `owner` still did. */
export async function handOffFenced(
  redis: Redis,
  keys: LockKeys,
  owner: string,
  nextOwner: string,
  leaseMs: number,
): Promise<Handover> {
  const token = await redis.lockFencedHandoff(keys.lock, keys.fence, owner, nextOwner, leaseMs);
  return token > 0 ? { handed: true, fenceToken: token } : { handed: false };
}
