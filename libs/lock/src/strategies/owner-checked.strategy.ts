import { randomUUID } from 'node:crypto';
import type { QueuedVerbs } from './lock-verbs';
import { RedisLockStrategy } from './redis-lock.strategy';

/**
 * set-nx-px with its release checked (compare-and-delete in release.lua), so no more foreign
 * deletes, and waiters served in order by the fair queue. Still a fixed lease (a slow holder
 * overlaps the next), and not reentrant: a nested acquire by the same flow waits for itself and
 * times out.
 */
export class OwnerCheckedStrategy extends RedisLockStrategy {
  readonly name = 'owner-checked';
  protected readonly verbs: QueuedVerbs = { queued: true, kind: { kind: 'string', fenced: false } };

  protected ownerValue(): string {
    return randomUUID();
  }
}
