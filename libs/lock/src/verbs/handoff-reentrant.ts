import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import type { Handover } from './attempt';

/** reentrant-handoff.lua: `owner`'s single hold now belongs to `nextOwner`, if it was still there. */
export async function handOffReentrant(
  redis: Redis,
  keys: LockKeys,
  owner: string,
  nextOwner: string,
  leaseMs: number,
): Promise<Handover> {
  return { handed: (await redis.lockReentrantHandoff(keys.lock, owner, nextOwner, leaseMs)) === 1 };
}
