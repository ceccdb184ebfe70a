import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import type { Attempt } from './attempt';

/** How a strategy's lock is stored, for the queue scripts: a string (owner value) or a reentrant hash. */
export interface QueueLockKind {
  readonly hash: boolean;
  /** Draw a fencing token whenever the lock changes hands. */
  readonly fenced: boolean;
}

/** One queued waiter: its owner value, and the tag of its process's wake-up channel. */
export interface QueueWaiter {
  readonly owner: string;
  readonly tag: string;
}

/** The waiter's entry in the queue: the channel tag first (hex, never a `|`), then the owner. */
export function queueEntry(waiter: QueueWaiter): string {
  return `${waiter.tag}|${waiter.owner}`;
}

/** The arguments both queue scripts begin with: the lock's four keys, then the waiter and its entry. */
export function queueScriptHead(keys: LockKeys, waiter: QueueWaiter) {
  return [keys.lock, keys.queue, keys.queueDeadlines, keys.fence, waiter.owner, queueEntry(waiter)] as const;
}

export interface QueueTiming {
  readonly leaseMs: number;
  /** The heartbeat TTL of the waiter's entry; 0 makes exactly one attempt without queueing. */
  readonly heartbeatMs: number;
  /** How long a waiter handed the lock has to claim it. */
  readonly claimMs: number;
}

/**
 * queue-acquire.lua: take the lock, claim it if it was handed to us, or queue (refresh the
 * heartbeat). Not acquired: `holderTtlMs` bounds the sleep.
 */
export async function queueAcquire(
  redis: Redis,
  keys: LockKeys,
  kind: QueueLockKind,
  waiter: QueueWaiter,
  timing: QueueTiming,
): Promise<Attempt> {
  const reply = await redis.lockQueueAcquire(
    ...queueScriptHead(keys, waiter),
    timing.leaseMs,
    timing.heartbeatMs,
    kind.hash ? 'hash' : 'string',
    kind.fenced ? '1' : '0',
    keys.waiterWakePrefix,
    timing.claimMs,
  );
  if (reply[0] === 0) return { acquired: false, holderTtlMs: reply[1] };
  return { acquired: true, fenceToken: kind.fenced ? reply[1] : undefined, fromQueue: reply[2] === 1 };
}
