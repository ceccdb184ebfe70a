import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import type { ReleaseOutcome } from './attempt';
import { queueEntry, queueScriptHead, type QueueLockKind, type QueueWaiter } from './queue-acquire';

const outcomeOf: Record<2 | 1 | 0 | -1, ReleaseOutcome> = {
  2: { status: 'released', detail: 'handed to the queue' },
  1: { status: 'released' },
  0: { status: 'still-held' },
  [-1]: { status: 'not-held' },
};

export interface QueueReleaseTiming {
  readonly leaseMs: number;
  readonly claimMs: number;
  /** The heartbeat given to `next`'s entry. */
  readonly heartbeatMs?: number;
}

/**
 * queue-release.lua: release (handing the lock to the queue's first live waiter), or leave the
 * queue; either way our entry, if any, is dropped, and a lock handed to us meanwhile passes on.
 * `next`, a waiter of the same process, is queued at the back once the lock is let go (status
 * `released`), so it needs no join of its own.
 */
export async function queueRelease(
  redis: Redis,
  keys: LockKeys,
  kind: QueueLockKind,
  waiter: QueueWaiter,
  timing: QueueReleaseTiming,
  next?: QueueWaiter,
): Promise<ReleaseOutcome> {
  const result = await redis.lockQueueRelease(
    ...queueScriptHead(keys, waiter),
    kind.hash ? 'hash' : 'string',
    kind.fenced ? '1' : '0',
    keys.waiterWakePrefix,
    timing.claimMs,
    timing.leaseMs,
    next ? queueEntry(next) : '',
    timing.heartbeatMs ?? 0,
  );
  return outcomeOf[result];
}
