/**
 * A waiting head's queue entry, offered to a holder of the same lock in this process. The
 * holder's release queues it at the back of the Redis queue in the same script call, so the head
 * needs no join round trip of its own: joining earlier would only have put it in the same place,
 * behind the waiters the release serves first.
 */
export class EntryOffer {
  private settle?: (queued: boolean | undefined) => void;
  private whenQueued?: Promise<boolean | undefined>;

  constructor(
    /** The strategy of the waiting head: only a holder of the same kind of lock queues it. */
    readonly kind: string,
    readonly owner: string,
  ) {}

  /**
   * Once taken: resolves when the holder's release has run: true if it queued the entry, false if
   * it did not (the lock is still held, or was not the holder's), undefined when the call failed.
   * Undefined until taken: most offers are withdrawn (a holder here handed the lock on instead).
   */
  get queued(): Promise<boolean | undefined> | undefined {
    return this.whenQueued;
  }

  get isTaken(): boolean {
    return this.whenQueued !== undefined;
  }

  /** The holder takes the entry into its release. */
  take(): void {
    this.whenQueued ??= new Promise((resolve) => (this.settle = resolve));
  }

  settled(queued: boolean | undefined): void {
    this.settle?.(queued);
  }
}

/**
 * The offered entries of one process, one per lock: the head of each local line offers its own.
 * A lock's slot stays when its offer is withdrawn or taken (a hot lock offers on every grant, and
 * a map that empties is reallocated); the local queue forgets it with the lock's line.
 */
export class EntryOffers {
  private readonly offers = new Map<string, EntryOffer | undefined>();

  offer(key: string, kind: string, owner: string): EntryOffer {
    const offer = new EntryOffer(kind, owner);
    this.offers.set(key, offer);
    return offer;
  }

  /** A head that stops waiting takes back an offer no holder has taken yet. */
  withdraw(key: string, offer: EntryOffer): void {
    if (this.offers.get(key) === offer) this.offers.set(key, undefined);
  }

  /** The holder of `kind` about to release `key` takes the offered entry, if any. */
  take(key: string, kind: string): EntryOffer | undefined {
    const offer = this.offers.get(key);
    if (!offer || offer.kind !== kind) return undefined;
    this.offers.set(key, undefined);
    offer.take();
    return offer;
  }

  /** `key`'s line is gone: so is its slot. */
  forget(key: string): void {
    this.offers.delete(key);
  }
}
