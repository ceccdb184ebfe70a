import { setImmediate as nextTurn } from 'node:timers/promises';
import { deferred, type Deferred } from './deferred';
import type { Attempt } from '../verbs/attempt';

/** What a taker learns of a hand-off: when its lease began (when the script was sent), its token, the verdict, or the run it joins. */
export type HandedTerms = Pick<
  Attempt,
  'sentAt' | 'fenceToken' | 'fenceTokenDrawn' | 'confirmation' | 'validUntil' | 'runOwner'
>;

/**
 * How much of the giver's lease (or, for redlock, its validity) must be left for a taker to start
 * before the hand-off script has answered: the lock is surely the giver's that long.
 */
export function handOffMarginMs(leaseMs: number): number {
  return Math.max(100, leaseMs / 10);
}

/**
 * Awaited by a giver after a local hand-off, before it returns to its caller. A taker parked at
 * the head (every taker of a run after the first) goes to its section in microtasks alone; the
 * giver's caller's next step (its next acquire, or the API's response) would otherwise interleave
 * with them. Put off to the next turn of the event loop, that step runs during the taker's first
 * round trip instead of before it.
 */
export function takerFirst(): Promise<void> {
  return nextTurn();
}

/**
 * The head of a local line, open to a hand-off: a holder of the same process may pass its lock
 * straight to this waiter instead of releasing it (lock cohorting: no free gap in Redis, no
 * wake-up, no acquire round trip). The holder claims the slot, runs its hand-off script, then
 * settles it; meanwhile the waiter neither gives up nor trusts its own attempts.
 */
export class HandoffSlot {
  private state: 'open' | 'claimed' | 'handed' | 'closed' = 'open';
  private outcome?: { promise: Promise<boolean>; settle: (handed: boolean) => void };
  private terms: HandedTerms = {};
  private whenClaimed?: Deferred;

  constructor(
    /** Only a holder of the same kind of lock (the same scripts) may hand off. */
    readonly kind: string,
    /** The waiter's owner value: the lock is handed to this owner. */
    readonly owner: string,
    readonly leaseMs: number,
  ) {}

  get isOpen(): boolean {
    return this.state === 'open';
  }

  /** Claimed by a holder, or already handed off: the waiter must not act on its own. */
  get isTaken(): boolean {
    return this.state === 'claimed' || this.state === 'handed';
  }

  /** The holder's side: reserve the waiter for one hand-off; false once the waiter left. */
  claim(): boolean {
    if (this.state !== 'open') return false;
    this.state = 'claimed';
    let settle!: (handed: boolean) => void;
    const promise = new Promise<boolean>((resolve) => (settle = resolve));
    this.outcome = { promise, settle };
    this.wakeWaiter();
    return true;
  }

  /** The holder's side: handed off (the waiter holds the lock on `terms`), or not. */
  settle(handed: boolean, terms: HandedTerms = {}): void {
    if (this.state !== 'claimed') return;
    this.terms = terms;
    this.state = handed ? 'handed' : 'open';
    this.outcome!.settle(handed);
  }

  /**
   * The waiter's side: whether the lock was handed to it, waiting while a hand-off is under way.
   * Only a taken slot is worth asking (see `isTaken`): the others answer false at once.
   */
  handed(): Promise<boolean> {
    if (this.state === 'claimed') return this.outcome!.promise;
    return Promise.resolve(this.state === 'handed');
  }

  /** The waiter's side: resolves when a holder claims the slot (at once if claimed already). */
  claimed(): Promise<void> {
    if (this.state !== 'open') return Promise.resolve();
    this.whenClaimed ??= deferred();
    return this.whenClaimed.promise;
  }

  /** The waiter's side, once handed: the lock as an acquired attempt. */
  handedAttempt(): Attempt {
    return { acquired: true, handedOff: true, ...this.terms };
  }

  /** The waiter's side, when it got the lock itself or gives up: no hand-off any more. */
  close(): void {
    if (this.state === 'open') this.state = 'closed';
    this.wakeWaiter();
  }

  private wakeWaiter(): void {
    this.whenClaimed?.resolve();
    this.whenClaimed = undefined;
  }
}
