import { randomUUID } from 'node:crypto';
import type { LockKeys } from '../lock-keys';
import { acquireSetnx } from '../verbs/acquire-setnx';
import type { Attempt, Handover, ReleaseOutcome } from '../verbs/attempt';
import { handOffOwner } from '../verbs/handoff-owner';
import { releaseDel } from '../verbs/release-del';
import { RedisLockStrategy } from './redis-lock.strategy';

/**
 * SETNX + DEL, no expiry: exclusive across replicas, but a holder that dies without releasing
 * leaves the key forever and every later acquire times out. A hand-off to a waiter of this
 * process keeps the key as it is, without expiry; only the owner value changes hands.
 */
export class SetnxStrategy extends RedisLockStrategy {
  readonly name = 'setnx';

  protected ownerValue(): string {
    return randomUUID();
  }

  protected tryAcquire(keys: LockKeys, owner: string): Promise<Attempt> {
    return acquireSetnx(this.runtime.redis, keys, owner);
  }

  protected override readonly leaseExpires = false;

  protected releaseVerb(keys: LockKeys): Promise<ReleaseOutcome> {
    return releaseDel(this.runtime.redis, keys);
  }

  protected override handOffVerb(keys: LockKeys, owner: string, nextOwner: string): Promise<Handover> {
    return handOffOwner(this.runtime.redis, keys, owner, nextOwner, 0);
  }
}
