import { randomUUID } from 'node:crypto';
import type { LockKeys } from '../lock-keys';
import { acquireSetNxPx } from '../verbs/acquire-set-nx-px';
import type { Attempt, Handover, ReleaseOutcome } from '../verbs/attempt';
import { handOffOwner } from '../verbs/handoff-owner';
import { releaseGetdel } from '../verbs/release-getdel';
import { RedisLockStrategy } from './redis-lock.strategy';

/**
 * SET NX PX: a crashed holder's lock expires. But release is still an unconditional delete: a
 * holder slower than its lease deletes the next holder's lock (a foreign delete, seen via GETDEL).
 * A hand-off to a waiter of this process is checked, so it never creates a second holder; when
 * it finds the lock gone, the release below runs and does its damage as before.
 */
export class SetNxPxStrategy extends RedisLockStrategy {
  readonly name: string = 'set-nx-px';

  protected ownerValue(): string {
    return randomUUID();
  }

  protected tryAcquire(keys: LockKeys, owner: string, leaseMs: number): Promise<Attempt> {
    return acquireSetNxPx(this.runtime.redis, keys, owner, leaseMs);
  }

  protected releaseVerb(keys: LockKeys, owner: string): Promise<ReleaseOutcome> {
    return releaseGetdel(this.runtime.redis, keys, owner);
  }

  protected override handOffVerb(keys: LockKeys, owner: string, nextOwner: string, leaseMs: number): Promise<Handover> {
    return handOffOwner(this.runtime.redis, keys, owner, nextOwner, leaseMs);
  }
}
