import { randomUUID } from 'node:crypto';
import type { LockKeys } from '../lock-keys';
import { acquireSetNxPx } from '../verbs/acquire-set-nx-px';
import type { Attempt, Handover, ReleaseOutcome } from '../verbs/attempt';
import { handOffOwner } from '../verbs/handoff-owner';
import { releaseOwner } from '../verbs/release-owner';
import type { QueueLockKind } from '../verbs/queue-acquire';
import { RedisLockStrategy } from './redis-lock.strategy';

/**
 * SET NX PX with a random owner per acquisition, released by Lua compare-and-delete: no more
 * foreign deletes. Still a fixed lease (a slow holder overlaps the next), and not reentrant:
 * a nested acquire by the same flow waits for itself and times out.
 */
export class OwnerCheckedStrategy extends RedisLockStrategy {
  readonly name = 'owner-checked';
  protected override readonly queueKind: QueueLockKind = { hash: false, fenced: false };

  protected ownerValue(): string {
    return randomUUID();
  }

  protected tryAcquire(keys: LockKeys, owner: string, leaseMs: number): Promise<Attempt> {
    return acquireSetNxPx(this.runtime.redis, keys, owner, leaseMs);
  }

  protected releaseVerb(keys: LockKeys, owner: string): Promise<ReleaseOutcome> {
    return releaseOwner(this.runtime.redis, keys, owner);
  }

  protected override handOffVerb(keys: LockKeys, owner: string, nextOwner: string, leaseMs: number): Promise<Handover> {
    return handOffOwner(this.runtime.redis, keys, owner, nextOwner, leaseMs);
  }
}
