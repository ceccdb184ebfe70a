import { randomUUID } from 'node:crypto';
import { acquireSetNxPx } from '../verbs/acquire-set-nx-px';
import { releaseGetdel } from '../verbs/release-getdel';
import type { RetryVerbs } from './lock-verbs';
import { RedisLockStrategy } from './redis-lock.strategy';

/**
 * SET NX PX: a crashed holder's lock expires. But release is still an unconditional delete: a
 * holder slower than its lease deletes the next holder's lock (a foreign delete, seen via GETDEL).
 * A hand-off to a waiter of this process is checked, so it never creates a second holder; when
 * it finds the lock gone, the release below runs and does its damage as before.
 */
export class SetNxPxStrategy extends RedisLockStrategy {
  readonly name: string = 'set-nx-px';
  protected readonly verbs: RetryVerbs = {
    queued: false,
    acquire: acquireSetNxPx,
    release: releaseGetdel,
    expires: true,
  };

  protected ownerValue(): string {
    return randomUUID();
  }
}
