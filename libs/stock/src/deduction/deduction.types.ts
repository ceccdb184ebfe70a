/** Who asks for a coupon, and how. */
export interface GrantRequest {
  readonly couponId: number;
  readonly userId: string;
  readonly strategy: string;
  readonly replica: string;
  /** Restrict the section to this stock row (segmented); otherwise the first non-empty row. */
  readonly segment?: number;
}

/** What runs inside the critical section besides the read and the write. */
export interface SectionHooks {
  /** The business work between reading the stock and writing it back (workMs and chaos stalls). */
  work(): Promise<void>;
  /** Aborted when the guarding lock is known lost: the write is then refused. */
  readonly signal?: AbortSignal;
  /**
   * A fencing token: the read registers it on the row unless a newer one is there, and the write
   * succeeds only if no newer one came since. Awaited before the read (a holder handed the lock
   * gets it a moment after it starts); a token that never comes (the lock was found gone) aborts.
   */
  readonly fenceToken?: Promise<number>;
  /** Awaited right before the named step (`read`, `write`) runs: where a stepped grab is held. */
  checkpoint?(step: 'read' | 'write'): Promise<void>;
}

export interface Granted {
  readonly segment: number;
  /** The coupon's stock left after this grant, over all rows. */
  readonly remaining: number;
  /** Optimistic attempts that lost to a concurrent write before this one succeeded. */
  readonly retries?: number;
}
