import type { Attempt } from '../verbs/attempt';
import { ABORTED } from './abort-watch';
import { LineWait } from './line-wait';
import type { LocalQueue } from './local-queue';
import type { WakeSubscriber } from './wake-subscriber';

export interface WaitPlan {
  /** The local line's key (the lock key: one line per resource). */
  readonly lineKey: string;
  readonly wakeChannel: string;
  readonly waitMs: number;
  /** Cancels the wait: the waiter leaves its line and the answer says `aborted`. */
  readonly signal?: AbortSignal;
  /** True when this flow already holds the lock here: a reentrant acquire must not queue behind its own waiters. */
  readonly skipLine: boolean;
  /** One attempt in Redis. */
  attempt(): Promise<Attempt>;
  /** Accept the lock straight from a holder of this process with the same kind of lock. */
  readonly handoff?: { readonly kind: string; readonly owner: string; readonly leaseMs: number };
  /**
   * How many processes listen for this lock's wake-ups (this one included, if it does). Asked
   * before the first attempt after this process ended a run of hand-offs: when others wait,
   * the head stands back for `yieldMs` so one of theirs, woken by that release, takes the lock.
   */
  listeners?(): Promise<number>;
  /** How long a head stands back after a run of hand-offs when other processes wait (default 50). */
  readonly yieldMs?: number;
  /** Whether another flow of this process holds the lock now: then only a hand-off or its release can help. */
  heldHere?(): boolean;
}

/**
 * Acquire, waiting up to waitMs (the pubsub wait mode). Within the process, contenders line up
 * (FIFO) and only the head tries Redis. The head subscribes to the lock's wake-up channel before
 * retrying (so a release between its attempt and its sleep is not missed), then sleeps until a
 * wake-up, the holder's remaining TTL, or a hand-off from a holder of this process, whichever
 * comes first. Returns the acquiring attempt (or the hand-off), or the last failed one when the
 * wait budget ran out. waitMs 0 makes exactly one attempt.
 */
export async function acquireWithWait(queue: LocalQueue, wake: WakeSubscriber, plan: WaitPlan): Promise<Attempt> {
  if (plan.skipLine || plan.waitMs <= 0) {
    if (plan.signal?.aborted) return ABORTED;
    const reentered = await plan.attempt();
    if (reentered.acquired || plan.waitMs <= 0) return reentered;
  }
  const wait = new PubsubWait(queue, wake, plan);
  try {
    return await wait.run();
  } finally {
    wait.end();
  }
}

class PubsubWait extends LineWait<WaitPlan> {
  async run(): Promise<Attempt> {
    const notAtHead = await this.untilHead();
    return notAtHead ?? this.untilAnswer();
  }

  end(): void {
    this.abort.dispose();
    this.slot?.close();
    // Stay subscribed a moment only for a next head of ours: a process with nobody waiting must
    // not look like a waiting one to the others (they stand back for waiters, see `listeners`).
    this.listener?.close(this.queue.length(this.plan.lineKey) > 1);
    this.place.leave(this.acquired);
  }

  protected async step(): Promise<Attempt | undefined> {
    if (await this.handedOff()) return this.handed();
    if (this.abort.isAborted()) return ABORTED;
    if (this.slot && this.plan.heldHere?.()) return this.awaitHolderHere();
    this.listener?.mark();
    const attempt = await this.attemptInRedis();
    if (!attempt || attempt.acquired || this.slot?.isTaken) return attempt?.acquired ? attempt : undefined;
    this.queue.noteHolderTtl(this.plan.lineKey, attempt.holderTtlMs, Date.now());
    const leftMs = this.deadline - Date.now();
    if (leftMs <= 0) return attempt;
    if (!this.listener) {
      this.listener = await this.wake.listen(this.plan.wakeChannel, leftMs);
      return undefined; // retry at once: the holder may have released before we were subscribed
    }
    await this.listener.wait(sleepBound(attempt.holderTtlMs, leftMs), this.interrupt());
    return undefined;
  }

  /** undefined when a local hand-off overtook a failed attempt (the next round takes it). */
  private async attemptInRedis(): Promise<Attempt | undefined> {
    try {
      await this.standBack();
      const attempt = await this.plan.attempt();
      if (attempt.acquired) this.queue.runOver(this.plan.lineKey);
      return attempt;
    } catch (error) {
      if (await this.handedOff()) return undefined;
      throw error;
    }
  }

  /** After this process ended a run of hand-offs, let a waiting process go first. */
  private async standBack(): Promise<void> {
    if (!this.plan.listeners || !this.queue.takeYield(this.plan.lineKey)) return;
    // Listen first, so the other processes count us as waiting when they stand back in turn.
    this.listener ??= await this.wake.listen(this.plan.wakeChannel, Math.max(0, this.deadline - Date.now()));
    const others = (await this.plan.listeners()) - 1;
    // The release that ended our run was published before SHARDNUMSUB ran, so its wake-up (if we got
    // it at all) is in by now: only a later release, someone else's, wakes us here.
    this.listener.mark();
    const leftMs = Math.max(0, this.deadline - Date.now());
    if (others > 0) await this.listener.wait(Math.min(this.plan.yieldMs ?? DEFAULT_YIELD_MS, leftMs));
    this.listener.mark();
  }

  /** A claimed slot is settled by the holder within one script call; until then nothing we saw counts. */
  private async handedOff(): Promise<boolean> {
    return this.slot?.isTaken === true && (await this.slot.handed());
  }

  private handed(): Attempt {
    return this.slot!.handedAttempt();
  }
}

/**
 * Long enough for a woken waiter of another process to reach Redis even on a loaded machine
 * (it needs about two round trips); short enough that a wrong guess (a process still
 * subscribed a moment after its last waiter left) idles the lock only briefly, once.
 */
const DEFAULT_YIELD_MS = 50;

/**
 * How long a contender may sleep: until the holder's lease runs out (at least 1 ms: PTTL says 0
 * in the lease's last millisecond), or the whole budget when the lock never expires (-1) or
 * its TTL is unknown. -2 (gone between the attempt and its PTTL) means retry at once.
 */
export function sleepBound(holderTtlMs: number | undefined, leftMs: number): number {
  if (holderTtlMs === -2) return 0;
  if (holderTtlMs === undefined || holderTtlMs < 0) return leftMs;
  return Math.min(Math.max(holderTtlMs, 1), leftMs);
}
