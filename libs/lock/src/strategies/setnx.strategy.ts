import { randomUUID } from 'node:crypto';
import type { FairKind } from '../verbs/acquire-fair';
import { acquireSetnx } from '../verbs/acquire-setnx';
import { releaseDel } from '../verbs/release-del';
import { RedisLockStrategy, type RetryVerbs } from './redis-lock.strategy';

/**
 * SETNX + DEL, no expiry: exclusive across replicas, but a holder that dies without releasing
 * leaves the key forever and every later acquire times out. A hand-off to a waiter of this
 * process keeps the key as it is, without expiry; only the owner value changes hands.
 */
export class SetnxStrategy extends RedisLockStrategy {
  readonly name = 'setnx';
  protected readonly kind: FairKind = { kind: 'string', fenced: false };
  protected override readonly retryVerbs: RetryVerbs = { acquire: acquireSetnx, release: releaseDel };
  protected override readonly leaseExpires = false;

  protected ownerValue(): string {
    return randomUUID();
  }
}
