/** The outcome of one acquire attempt in Redis: the per-attempt state, and all of it. */
export interface Attempt {
  readonly acquired: boolean;
  /** When not acquired: the holder's remaining lease in ms (-1 no expiry, -2 none: free but not ours yet). */
  readonly holderTtlMs?: number;
  /** When acquired by a fencing strategy: the token. */
  readonly fenceToken?: number;
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
