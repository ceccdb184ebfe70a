import type { LockKeys } from '../lock-keys';
import type { ReleaseOutcome } from '../verbs/attempt';
import type { QueueLockKind } from '../verbs/queue-acquire';
import { releaseOwner } from '../verbs/release-owner';
import { SetNxPxStrategy } from './set-nx-px.strategy';

/**
 * set-nx-px with its release checked: Lua compare-and-delete, so no more foreign deletes, and a
 * lock kind the fair Redis queue can hand over. Still a fixed lease (a slow holder overlaps the
 * next), and not reentrant: a nested acquire by the same flow waits for itself and times out.
 */
export class OwnerCheckedStrategy extends SetNxPxStrategy {
  override readonly name = 'owner-checked';
  protected override readonly queueKind: QueueLockKind = { hash: false, fenced: false };

  protected override releaseVerb(keys: LockKeys, owner: string): Promise<ReleaseOutcome> {
    return releaseOwner(this.runtime.redis, keys, owner);
  }
}
