import { randomUUID } from 'node:crypto';
import { acquireSetnx } from '../verbs/acquire-setnx';
import { releaseDel } from '../verbs/release-del';
import type { RetryVerbs } from './lock-verbs';
import { RedisLockStrategy } from './redis-lock.strategy';

/**
 * SETNX + DEL, no expiry: exclusive across replicas, but a holder that dies without releasing
 * leaves the key forever and every later acquire times out. A hand-off to a waiter of this
 * process keeps the key as it is, without expiry; only the owner value changes hands.
 */
export class SetnxStrategy extends RedisLockStrategy {
  readonly name = 'setnx';
  protected readonly verbs: RetryVerbs = { queued: false, acquire: acquireSetnx, release: releaseDel, expires: false };

  protected ownerValue(): string {
    return randomUUID();
  }
}
