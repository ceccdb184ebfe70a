import { randomUUID } from 'node:crypto';
import { acquireFenced } from '../verbs/acquire-fenced';
import { handOffFenced } from '../verbs/handoff-fenced';
import { releaseOwner } from '../verbs/release-owner';
import type { LockTraits, LockVerbs } from './redis-lock-verbs';
import { RedisLockStrategy } from './redis-lock.strategy';

/**
 * Owner-checked, plus a fencing token from the same script: tokens strictly increase, so the
 * store can refuse a write from a holder whose lease ran out (HeldLock.fenceToken). A waiter of
 * this process handed the lock draws its token in the hand-off script: it starts at once (unless
 * the giver's lease is near its end), and only its write waits for the token.
 */
export class FencedStrategy extends RedisLockStrategy {
  readonly name = 'fenced';
  protected readonly verbs: LockVerbs = { acquire: acquireFenced, release: releaseOwner, handOff: handOffFenced };
  protected override readonly traits: LockTraits = { queue: { hash: false, fenced: true } };

  protected ownerValue(): string {
    return randomUUID();
  }
}
