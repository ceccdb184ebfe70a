import { randomUUID } from 'node:crypto';
import type { LockKeys } from '../lock-keys';
import { acquireFenced } from '../verbs/acquire-fenced';
import type { Attempt, ReleaseOutcome } from '../verbs/attempt';
import { releaseOwner } from '../verbs/release-owner';
import { RedisLockStrategy } from './redis-lock.strategy';

/**
 * Owner-checked, plus a fencing token from the same script: tokens strictly increase, so the
 * store can refuse a write from a holder whose lease ran out (HeldLock.fenceToken).
 */
export class FencedStrategy extends RedisLockStrategy {
  readonly name = 'fenced';

  protected ownerValue(): string {
    return randomUUID();
  }

  protected tryAcquire(keys: LockKeys, owner: string, leaseMs: number): Promise<Attempt> {
    return acquireFenced(this.runtime.redis, keys, owner, leaseMs);
  }

  protected releaseVerb(keys: LockKeys, owner: string): Promise<ReleaseOutcome> {
    return releaseOwner(this.runtime.redis, keys, owner);
  }
}
