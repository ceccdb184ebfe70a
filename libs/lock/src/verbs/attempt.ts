import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';

/** The outcome of one acquire attempt in Redis. */
export interface Attempt {
  readonly acquired: boolean;
  /** When not acquired: the holder's remaining lease in ms (-1 no expiry, -2 gone meanwhile). */
  readonly holderTtlMs?: number;
  /** When acquired by a fencing strategy: the token. */
  readonly fenceToken?: number;
  /**
   * When handed off by a fencing strategy before its script answered: the token that script draws
   * along with its owner check; rejects (LockLostError) when the script found the lock gone.
   */
  readonly fenceTokenDrawn?: Promise<number>;
  /** When acquired: handed off by a holder of this process, not taken in Redis. */
  readonly handedOff?: boolean;
  /** When acquired: handed to us by a release from the Redis queue (queue wait mode). */
  readonly fromQueue?: boolean;
  /**
   * When acquired: when the command that set our lease was sent, or (handed us by a queue release)
   * when we were woken, before our claim went out; the lease cannot end before sentAt + lease.
   */
  readonly sentAt?: number;
  /**
   * When the lock was given to us before Redis confirmed it (a queue release's claim, or a hand-off
   * script still in flight): resolves to undefined once it is surely ours, else to why it was lost.
   */
  readonly confirmation?: Promise<string | undefined>;
  /**
   * When a queue release handed us the lock and our claim waits for the section to begin: sends it
   * now if it has not gone yet. Every release of the hold calls it first, so the claim lands before
   * the release (or the lease a local hand-off shares) on the lock connection.
   */
  readonly sendClaim?: () => void;
  /**
   * When handed on within this process's run with no Redis call (a kind that shares its run): the
   * owner value the lock has in Redis, which the taker holds under; its lease ends with the run's.
   */
  readonly runOwner?: string;
  /** When not acquired: the caller's signal cancelled the wait. */
  readonly aborted?: boolean;
  /**
   * When handed over by a redlock holder: until when, by performance.now(), the taker may use the
   * lock. Before a swap answered, as long as the giver's majority surely lasts (the confirmation
   * then tells whether the taker's own lease began); within the run, the run's own validity.
   */
  readonly validUntil?: number;
}

/** What a hand-off script did: nothing (the lock was not ours), or the lock is the taker's now. */
export interface HandOffResult {
  readonly handed: boolean;
  /** When handed by a fencing strategy: the taker's token, drawn by the same script. */
  readonly fenceToken?: number;
}

/** A hand-off script's verb: `owner`'s lock passes to `nextOwner` with a fresh lease, if `owner` still held it. */
export type HandOffVerb = (
  redis: Redis,
  keys: LockKeys,
  owner: string,
  nextOwner: string,
  leaseMs: number,
) => Promise<HandOffResult>;

/** What a release found. */
export type ReleaseStatus =
  | 'released' // deleted our lock
  | 'still-held' // a reentrant hold was dropped, outer holds remain
  | 'not-held' // refused: the lock is not ours (checked strategies)
  | 'expired' // nothing to delete: our lock had already gone
  | 'foreign-delete'; // we deleted a lock that was someone else's

export interface ReleaseOutcome {
  readonly status: ReleaseStatus;
  /** For a foreign delete: the owner value that was deleted. */
  readonly detail?: string;
}
