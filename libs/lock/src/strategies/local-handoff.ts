import { drawnFenceToken } from '../fence-tokens';
import type { Hold } from '../held-locks';
import type { LockKeys } from '../lock-keys';
import type { LockRuntime } from '../lock-runtime';
import type { HandOffResult, HandOffVerb, ReleaseOutcome } from '../verbs/attempt';
import { handOffMarginMs, type HandoffSlot } from '../waiting/handoff-slot';

/** What a holder's kind of lock tells its local hand-off. */
export interface LocalHandOff {
  readonly runtime: LockRuntime;
  readonly kind: string;
  readonly verb: HandOffVerb;
  /** The taker draws its own fencing token in the hand-off script. */
  readonly fenced: boolean;
  /** The taker may inherit the run's owner value and lease, with no Redis call (see `sharedRunCovers`). */
  readonly sharesRun: boolean;
}

const HANDED: ReleaseOutcome = { status: 'released', detail: 'handed off' };

/**
 * Whether a lease ending at `leaseEndsBy` still covers a taker's own lease from `now`, give or
 * take a hundredth of it: then a taker of a kind that shares its run inherits the lock as Redis
 * has it, with no hand-off script. Past that, the script gives the taker a lease of its own.
 */
export function sharedRunCovers(leaseEndsBy: number, leaseMs: number, now: number): boolean {
  return leaseEndsBy - now >= leaseMs - leaseMs / 100;
}

/**
 * If the head of this process's line waits for the same lock, hand it over instead of
 * releasing: the lock never sits free between two holders of one process (lock cohorting).
 *
 * - A kind that shares its run (owner-checked) leaves Redis as it is while its lease still covers
 *   the taker's: the taker holds under the run's owner value and lease, and is checked in Redis
 *   only when its section first asks for its lost-lock signal (the API's section asks at once).
 * - Otherwise the hand-off script passes the lock on with the taker's own value and lease. While
 *   our lease surely runs for a while yet (less a margin), the taker starts at once and the script
 *   goes out behind it on the same connection as every later command on this lock; a refusal can
 *   then only mean the key was removed behind our back, and the taker is told (signal aborted).
 *   A fenced taker's token is the one the script draws, never a guess. Near the lease's end the
 *   taker waits for the script.
 *
 * Undefined when there is no one to hand to, the line had its hand-offs in a row, or the script
 * refused (then the ordinary release tells what happened to our lock).
 */
export function handOffLocally(
  how: LocalHandOff,
  hold: Hold,
  keys: LockKeys,
  leaseEndsBy: number,
): ReleaseOutcome | undefined | Promise<ReleaseOutcome | undefined> {
  const slot = how.runtime.handOffSlot(keys.lock, how.kind);
  if (!slot?.claim()) return undefined;
  const sentAt = Date.now();
  if (how.sharesRun && sharedRunCovers(leaseEndsBy, slot.leaseMs, sentAt)) {
    // Within the run nothing goes to Redis, so nothing is awaited either.
    slot.settle(true, { sentAt: leaseEndsBy - slot.leaseMs, runOwner: hold.owner });
    how.runtime.handedOff(keys.lock);
    return HANDED;
  }
  return handOffByScript(how, hold, keys, slot, sentAt, leaseEndsBy);
}

/** The hand-off script passes the lock on with the taker's own value and lease. */
async function handOffByScript(
  how: LocalHandOff,
  hold: Hold,
  keys: LockKeys,
  slot: HandoffSlot,
  sentAt: number,
  leaseEndsBy: number,
): Promise<ReleaseOutcome | undefined> {
  const script = how.runtime.call((redis) => how.verb(redis, keys, hold.owner, slot.owner, slot.leaseMs));
  if (leaseEndsBy - sentAt > handOffMarginMs(slot.leaseMs)) {
    // Not awaited on purpose: awaiting would add a round trip to every hand-off, and the lock is
    // surely ours for the margin. A refusal or a failure still reaches the taker (signal aborted).
    const confirmation = script.then(
      ({ handed }) => (handed ? undefined : 'the hand-off found the lock gone'),
      (error: unknown) => `the hand-off failed: ${String(error)}`,
    );
    // A fenced taker gets its token when the script has drawn it: its write waits, not its start.
    const fenceTokenDrawn = how.fenced ? drawnFenceToken(script, keys.resource) : undefined;
    slot.settle(true, { sentAt, confirmation, fenceTokenDrawn });
    how.runtime.handedOff(keys.lock);
    return HANDED;
  }
  let result: HandOffResult = { handed: false };
  try {
    result = await script;
  } finally {
    slot.settle(result.handed, { sentAt, fenceToken: result.fenceToken });
  }
  if (!result.handed) return undefined;
  how.runtime.handedOff(keys.lock);
  return HANDED;
}
