import { randomUUID } from 'node:crypto';
import type { LockKeys } from '../lock-keys';
import { acquireSetNxPx } from '../verbs/acquire-set-nx-px';
import type { Attempt, ReleaseOutcome } from '../verbs/attempt';
import { releaseGetdel } from '../verbs/release-getdel';
import { RedisLockStrategy } from './redis-lock.strategy';

/**
 * SET NX PX: a crashed holder's lock expires. But release is still an unconditional delete: a
 * holder slower than its lease deletes the next holder's lock (a foreign delete, seen via GETDEL).
 */
export class SetNxPxStrategy extends RedisLockStrategy {
  readonly name = 'set-nx-px';

  protected ownerValue(): string {
    return randomUUID();
  }

  protected tryAcquire(keys: LockKeys, owner: string, leaseMs: number): Promise<Attempt> {
    return acquireSetNxPx(this.runtime.redis, keys, owner, leaseMs);
  }

  protected releaseVerb(keys: LockKeys, owner: string): Promise<ReleaseOutcome> {
    return releaseGetdel(this.runtime.redis, keys, owner);
  }
}
