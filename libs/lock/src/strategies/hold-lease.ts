import type { Attempt } from '../verbs/attempt';

/**
 * Until when, by our clock, a hold's lease surely lasts; and the claim a hold handed over by a
 * queue release may still owe. Such a hold starts on the claim lease and claims (which starts its
 * full lease) when its section asks for its lost-lock signal or half the claim lease has gone, so
 * a short section needs no claim: its release is checked by owner all the same.
 */
export class HoldLease {
  private until: number;
  private timer?: ReturnType<typeof setTimeout>;
  private claimed = false;

  constructor(
    private readonly attempt: Attempt,
    private readonly leaseMs: number,
    leaseFrom: number,
    expires: boolean,
    /** Told why, when the claim finds the lock gone or fails. */
    private readonly lost: (why: string) => void,
  ) {
    this.until = expires ? leaseFrom + leaseMs : Infinity;
    const deferred = attempt.deferredClaim;
    if (!deferred) return;
    this.until = Math.min(this.until, leaseFrom + deferred.claimMs);
    this.timer = setTimeout(() => this.claimNow(), deferred.claimMs / 2);
    this.timer.unref();
  }

  /** The latest our lease may end, by our clock. */
  get endsBy(): number {
    return this.until;
  }

  /** Sends the claim still owed, if any. */
  claimNow(): void {
    const deferred = this.attempt.deferredClaim;
    if (!deferred || this.claimed) return;
    this.claimed = true;
    this.close();
    const sentAt = Date.now();
    deferred.claim().then(
      (claimed) => {
        if (claimed.acquired) this.until = Math.max(this.until, sentAt + this.leaseMs);
        else this.lost('the claim found the lock gone');
      },
      (error: unknown) => this.lost(`the claim failed: ${String(error)}`),
    );
  }

  /** The hold ends: no claim any more. */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.claimed = true;
  }
}
