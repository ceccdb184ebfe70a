import { randomUUID } from 'node:crypto';
import type { LockKeys } from '../lock-keys';
import { acquireSetnx } from '../verbs/acquire-setnx';
import type { Attempt, ReleaseOutcome } from '../verbs/attempt';
import { releaseDel } from '../verbs/release-del';
import { RedisLockStrategy } from './redis-lock.strategy';

/**
 * SETNX + DEL, no expiry: exclusive across replicas, but a holder that dies without releasing
 * leaves the key forever and every later acquire times out.
 */
export class SetnxStrategy extends RedisLockStrategy {
  readonly name = 'setnx';

  protected ownerValue(): string {
    return randomUUID();
  }

  protected tryAcquire(keys: LockKeys, owner: string): Promise<Attempt> {
    return acquireSetnx(this.runtime.redis, keys, owner);
  }

  protected releaseVerb(keys: LockKeys): Promise<ReleaseOutcome> {
    return releaseDel(this.runtime.redis, keys);
  }
}
