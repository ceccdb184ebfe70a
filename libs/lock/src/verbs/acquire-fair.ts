import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import type { LockKind } from '../scripts/lua-commands';
import { heldFor, type Attempt } from './attempt';

/** How a lock kind is stored, and whether it draws fencing tokens. */
export interface FairKind {
  readonly kind: LockKind;
  readonly fenced: boolean;
}

/**
 * acquire.lua: take the lock if free and no live process is ahead (or re-enter it), else queue
 * `tag` with a heartbeat of `heartbeatMs` (0: one attempt, never queued).
 */
export async function acquireFair(
  redis: Redis,
  keys: LockKeys,
  how: FairKind,
  waiter: { readonly owner: string; readonly tag: string },
  leaseMs: number,
  heartbeatMs: number,
): Promise<Attempt> {
  const [taken, value] = await redis.lockAcquire(
    keys.lock,
    keys.queue,
    keys.heartbeats,
    keys.fence,
    waiter.owner,
    waiter.tag,
    leaseMs,
    heartbeatMs,
    how.kind,
    how.fenced ? '1' : '0',
  );
  // Not taken: the holder's PTTL, or -2 when the lock is free but another process is ahead.
  if (taken === 0) return value === -2 ? { acquired: false, why: 'behind' } : heldFor(value);
  return how.fenced && value > 0 ? { acquired: true, fenceToken: value } : { acquired: true };
}

/** Takes `tag` off the queue: its process has no front left to wait in Redis. */
export async function leaveQueue(redis: Redis, keys: LockKeys, tag: string): Promise<void> {
  await redis.multi().zrem(keys.heartbeats, tag).lrem(keys.queue, 0, tag).exec();
}
