import { randomUUID } from 'node:crypto';
import { currentFlowId } from '../flow-context';
import type { QueuedVerbs } from './lock-verbs';
import { RedisLockStrategy } from './redis-lock.strategy';

/**
 * Redisson's hash lock: owner = replica id + flow id, value = hold count, so the same flow may
 * nest. The lease is still fixed: a holder slower than it overlaps the next.
 */
export class ReentrantStrategy extends RedisLockStrategy {
  readonly name: string = 'reentrant';
  protected readonly verbs: QueuedVerbs = { queued: true, kind: { kind: 'hash', fenced: false } };
  protected override readonly reentrant = true;

  protected ownerValue(): string {
    return `${this.runtime.replicaId}:${currentFlowId() ?? randomUUID()}`;
  }
}
