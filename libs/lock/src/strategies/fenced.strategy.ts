import { randomUUID } from 'node:crypto';
import type { LockKeys } from '../lock-keys';
import { acquireFenced } from '../verbs/acquire-fenced';
import type { Attempt, Handover, ReleaseOutcome } from '../verbs/attempt';
import { handOffFenced } from '../verbs/handoff-fenced';
import { releaseOwner } from '../verbs/release-owner';
import type { QueueLockKind } from '../verbs/queue-acquire';
import { RedisLockStrategy } from './redis-lock.strategy';

/**
 * Owner-checked, plus a fencing token from the same script: tokens strictly increase, so the
 * store can refuse a write from a holder whose lease ran out (HeldLock.fenceToken). A waiter of
 * this process handed the lock draws its own token in the hand-off script, so it waits for it.
 */
export class FencedStrategy extends RedisLockStrategy {
  readonly name = 'fenced';
  protected override readonly queueKind: QueueLockKind = { hash: false, fenced: true };

  protected ownerValue(): string {
    return randomUUID();
  }

  protected tryAcquire(keys: LockKeys, owner: string, leaseMs: number): Promise<Attempt> {
    return acquireFenced(this.runtime.redis, keys, owner, leaseMs);
  }

  protected override readonly handOffAwaited = true;

  protected releaseVerb(keys: LockKeys, owner: string): Promise<ReleaseOutcome> {
    return releaseOwner(this.runtime.redis, keys, owner);
  }

  protected override handOffVerb(keys: LockKeys, owner: string, nextOwner: string, leaseMs: number): Promise<Handover> {
    return handOffFenced(this.runtime.redis, keys, owner, nextOwner, leaseMs);
  }
}
