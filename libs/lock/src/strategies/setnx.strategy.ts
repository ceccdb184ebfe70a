import { randomUUID } from 'node:crypto';
import { acquireSetnx } from '../verbs/acquire-setnx';
import { handOffOwner } from '../verbs/handoff-owner';
import { releaseDel } from '../verbs/release-del';
import type { LockTraits, LockVerbs } from './redis-lock-verbs';
import { RedisLockStrategy } from './redis-lock.strategy';

/**
 * SETNX + DEL, no expiry: exclusive across replicas, but a holder that dies without releasing
 * leaves the key forever and every later acquire times out. A hand-off to a waiter of this
 * process keeps the key as it is, without expiry; only the owner value changes hands.
 */
export class SetnxStrategy extends RedisLockStrategy {
  readonly name = 'setnx';
  protected readonly verbs: LockVerbs = {
    acquire: acquireSetnx,
    release: releaseDel,
    // A lease of 0 keeps the key without expiry, as setnx's lock is.
    handOff: (redis, keys, owner, nextOwner) => handOffOwner(redis, keys, owner, nextOwner, 0),
  };
  protected override readonly traits: LockTraits = { leaseExpires: false };

  protected ownerValue(): string {
    return randomUUID();
  }
}
