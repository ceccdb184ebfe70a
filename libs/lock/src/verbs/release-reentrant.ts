import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import type { ReleaseOutcome } from './attempt';

const statusOf = { 1: 'released', 0: 'still-held', [-1]: 'not-held' } as const;

/** reentrant-release.lua: one hold fewer; the last deletes the lock and publishes the wake-up. */
export async function releaseReentrant(
  redis: Redis,
  keys: LockKeys,
  owner: string,
  leaseMs: number,
): Promise<ReleaseOutcome> {
  const result = await redis.lockReentrantRelease(keys.lock, keys.wake, owner, leaseMs);
  return { status: statusOf[result] };
}
