import { acquireSetNxPx } from '../verbs/acquire-set-nx-px';
import { handOffOwner } from '../verbs/handoff-owner';
import { releaseOwner } from '../verbs/release-owner';
import type { LockTraits, LockVerbs } from './redis-lock-verbs';
import { SetNxPxStrategy } from './set-nx-px.strategy';

/**
 * set-nx-px with its release checked: Lua compare-and-delete, so no more foreign deletes, and a
 * lock kind the fair Redis queue can hand off. Still a fixed lease (a slow holder overlaps the
 * next), and not reentrant: a nested acquire by the same flow waits for itself and times out.
 * Its local hand-offs share the run (lock cohorting): no Redis call while the run's lease covers
 * the taker's, which is checked when its section asks for its signal.
 */
export class OwnerCheckedStrategy extends SetNxPxStrategy {
  override readonly name = 'owner-checked';
  protected override readonly verbs: LockVerbs = {
    acquire: acquireSetNxPx,
    release: releaseOwner,
    handOff: handOffOwner,
  };
  protected override readonly traits: LockTraits = { queue: { hash: false, fenced: false }, sharesRun: true };
}
