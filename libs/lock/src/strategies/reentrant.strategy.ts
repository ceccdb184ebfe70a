import { randomUUID } from 'node:crypto';
import { currentFlowId } from '../flow-context';
import { acquireReentrant } from '../verbs/acquire-reentrant';
import { handOffReentrant } from '../verbs/handoff-reentrant';
import { releaseReentrant } from '../verbs/release-reentrant';
import type { LockTraits, LockVerbs } from './redis-lock-verbs';
import { RedisLockStrategy } from './redis-lock.strategy';

/**
 * Redisson's hash lock: owner = replica id + flow id, value = hold count, so the same flow may
 * nest. The lease is still fixed: a holder slower than it overlaps the next.
 */
export class ReentrantStrategy extends RedisLockStrategy {
  readonly name: string = 'reentrant';
  protected readonly verbs: LockVerbs = {
    acquire: acquireReentrant,
    release: releaseReentrant,
    handOff: handOffReentrant,
  };
  protected override readonly traits: LockTraits = { reentrant: true, queue: { hash: true, fenced: false } };

  protected ownerValue(): string {
    return `${this.runtime.replicaId}:${currentFlowId() ?? randomUUID()}`;
  }
}
