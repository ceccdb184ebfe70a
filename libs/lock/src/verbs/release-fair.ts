import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import type { FairKind } from './acquire-fair';
import type { ReleaseOutcome } from './attempt';

const outcomeOf = { 1: { status: 'released' }, 0: { status: 'still-held' }, [-1]: { status: 'not-held' } } as const;

/** release.lua: one hold fewer; the last deletes the lock and wakes the process at the queue's front. */
export async function releaseFair(
  redis: Redis,
  keys: LockKeys,
  how: FairKind,
  owner: string,
  leaseMs: number,
): Promise<ReleaseOutcome> {
  return outcomeOf[await redis.lockRelease(keys.lock, keys.queue, owner, how.kind, leaseMs, keys.wakePrefix)];
}
