import { randomUUID } from 'node:crypto';
import { currentFlowId } from '../flow-context';
import type { LockKeys } from '../lock-keys';
import { acquireReentrant } from '../verbs/acquire-reentrant';
import type { Attempt, Handover, ReleaseOutcome } from '../verbs/attempt';
import { handOffReentrant } from '../verbs/handoff-reentrant';
import { releaseReentrant } from '../verbs/release-reentrant';
import type { QueueLockKind } from '../verbs/queue-acquire';
import { RedisLockStrategy } from './redis-lock.strategy';

/**
 * Redisson's hash lock: owner = replica id + flow id, value = hold count, so the same flow may
 * nest. The lease is still fixed: a holder slower than it overlaps the next.
 */
export class ReentrantStrategy extends RedisLockStrategy {
  readonly name: string = 'reentrant';
  protected override readonly queueKind: QueueLockKind = { hash: true, fenced: false };
  protected override readonly reentrant = true;

  protected ownerValue(): string {
    return `${this.runtime.replicaId}:${currentFlowId() ?? randomUUID()}`;
  }

  protected tryAcquire(keys: LockKeys, owner: string, leaseMs: number): Promise<Attempt> {
    return acquireReentrant(this.runtime.redis, keys, owner, leaseMs);
  }

  protected releaseVerb(keys: LockKeys, owner: string, leaseMs: number): Promise<ReleaseOutcome> {
    return releaseReentrant(this.runtime.redis, keys, owner, leaseMs);
  }

  protected override handOffVerb(keys: LockKeys, owner: string, nextOwner: string, leaseMs: number): Promise<Handover> {
    return handOffReentrant(this.runtime.redis, keys, owner, nextOwner, leaseMs);
  }
}
