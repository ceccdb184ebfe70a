import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import type { ReleaseOutcome } from './attempt';

/** Lua compare-and-delete (owner-release.lua): only the owner's value is deleted. */
export async function releaseOwner(redis: Redis, keys: LockKeys, owner: string): Promise<ReleaseOutcome> {
  const released = await redis.lockOwnerRelease(keys.lock, keys.wake, owner);
  return { status: released === 1 ? 'released' : 'not-held' };
}
