import type { Attempt } from '../verbs/attempt';
import { ABORTED, watchAbort, type AbortWatch } from './abort-watch';
import { HandoffSlot } from './handoff-slot';
import type { LocalQueue, QueuePlace } from './local-queue';
import type { WakeListener, WakeSubscriber } from './wake-subscriber';

export interface LineWaitPlan {
  /** The local line's key (the lock key: one line per resource). */
  readonly lineKey: string;
  readonly waitMs: number;
  /** Cancels the wait: the waiter leaves its line and the answer says `aborted`. */
  readonly signal?: AbortSignal;
  /** Accept the lock straight from a holder of this process with the same kind of lock. */
  readonly handoff?: { readonly kind: string; readonly owner: string; readonly leaseMs: number };
}

/** What both wait paths share: a place in the local line, its hand-off slot, the deadline, the cancel, the wake-ups. */
export abstract class LineWait<P extends LineWaitPlan> {
  protected readonly deadline: number;
  protected readonly place: QueuePlace;
  protected readonly slot?: HandoffSlot;
  protected readonly abort: AbortWatch;
  /** Set once the wait ends with the lock: the line's next head then sees it held here. */
  protected acquired = false;
  protected listener?: WakeListener;

  constructor(
    protected readonly queue: LocalQueue,
    protected readonly wake: WakeSubscriber,
    protected readonly plan: P,
  ) {
    this.deadline = Date.now() + plan.waitMs;
    this.abort = watchAbort(plan.signal);
    this.place = queue.enter(plan.lineKey, plan.waitMs);
    const offer = plan.handoff;
    this.slot = offer && new HandoffSlot(offer.kind, offer.owner, offer.leaseMs);
  }

  /** One round of waiting at the head: the answer, or undefined to go round again. */
  protected abstract step(): Promise<Attempt | undefined>;

  /** Goes round until there is an answer. */
  protected async untilAnswer(): Promise<Attempt> {
    for (;;) {
      const outcome = await this.step();
      if (!outcome) continue;
      this.acquired = outcome.acquired;
      return outcome;
    }
  }

  /** Waits for the head of the line: undefined there (open to hand-offs), else the answer. */
  protected async untilHead(): Promise<Attempt | undefined> {
    const atHead = this.abort.watching
      ? await Promise.race([this.place.turn, this.abort.aborted.then(() => false)])
      : await this.place.turn;
    if (this.abort.isAborted()) return ABORTED;
    if (!atHead) return this.timedOut();
    if (this.slot) this.place.offer(this.slot);
    return undefined;
  }

  /** Another flow here holds the lock: only its hand-off or its release can help, so no asking Redis. */
  protected async awaitHolderHere(): Promise<Attempt | undefined> {
    const leftMs = this.deadline - Date.now();
    if (leftMs <= 0) return this.timedOut();
    const events = [this.queue.whenReleasedHere(this.plan.lineKey), this.place.expired()];
    if (this.slot) events.push(this.slot.claimed());
    if (this.abort.watching) events.push(this.abort.aborted);
    await Promise.race(events);
    // A hand-off under way wins over the time running out: the next round takes it.
    return this.place.timedOut() && !this.slot?.isTaken ? this.timedOut() : undefined;
  }

  /** What cuts a sleep short: a holder here claiming our slot, or the cancel. */
  protected interrupt(): Promise<unknown> | undefined {
    if (!this.abort.watching) return this.slot?.claimed();
    return this.slot ? Promise.race([this.slot.claimed(), this.abort.aborted]) : this.abort.aborted;
  }

  protected timedOut(): Attempt {
    return { acquired: false, holderTtlMs: this.queue.holderTtl(this.plan.lineKey, Date.now()) };
  }
}
