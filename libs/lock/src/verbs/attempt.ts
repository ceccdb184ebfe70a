/** The outcome of one acquire attempt in Redis. */
export type Attempt = { readonly acquired: true; readonly fenceToken?: number } | Refusal;

/** Why an attempt did not take the lock. */
export type Refusal = { readonly acquired: false } & (
  | /** Another holds it, with `holderTtlMs` of its lease left (0: its last millisecond). */
    { readonly why: 'held'; readonly holderTtlMs: number }
    /** Another holds it without expiry (setnx's lock). */
  | { readonly why: 'held-forever' }
  /** It is free, but another process is ahead in the queue. */
  | { readonly why: 'behind' }
  /** It was taken, but too few replicas acknowledged it (WAIT), so it was given back. */
  | { readonly why: 'replicas-missing'; readonly acknowledged: number; readonly wanted: number }
  /** Redlock: no majority of nodes within the lease. */
  | { readonly why: 'no-majority' }
);

/** What PTTL answered for a lock that was not taken: a lease left, or none (-1). */
export function heldFor(pttl: number): Refusal {
  return pttl === -1
    ? { acquired: false, why: 'held-forever' }
    : { acquired: false, why: 'held', holderTtlMs: Math.max(0, pttl) };
}

/** The holder's remaining lease an attempt saw, when it saw one. */
export function holderTtlOf(attempt: Attempt): number | undefined {
  return !attempt.acquired && attempt.why === 'held' ? attempt.holderTtlMs : undefined;
}

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
