import { drawnFenceToken } from '../fence-tokens';
import type { Attempt } from '../verbs/attempt';
import { ABORTED } from './abort-watch';
import { claimOnceBegun, confirmed } from './claim-once-begun';
import type { EntryOffer } from './entry-offers';
import type { HandoffSlot } from './handoff-slot';
import { LineWait } from './line-wait';
import type { LocalQueue } from './local-queue';
import type { QueuePlan } from './queue-plan';
import { QUEUE_TIMING, queueSleepMs } from './queue-timing';
import type { WakeSubscriber } from './wake-subscriber';

/**
 * Acquire in the queue wait mode. The local line keeps its FIFO and only its head queues in
 * Redis, so each process has one entry there and a release hands the lock to the processes in
 * turn; a holder next door may still hand off locally, up to the hand-off limit. The head
 * subscribes to its process's own channel before it queues, so a release's message cannot be
 * missed; a dropped one costs one heartbeat poll, which claims the lock all the same. While a
 * holder of this process has the lock, the head does not join in Redis: it offers its entry, and
 * the holder's release queues it in the same call.
 */
export async function acquireInQueue(queue: LocalQueue, wake: WakeSubscriber, plan: QueuePlan): Promise<Attempt> {
  if (plan.skipLine) {
    const reentered = await plan.reenter();
    if (reentered.acquired) return reentered;
  }
  if (plan.waitMs <= 0) return plan.signal?.aborted ? ABORTED : plan.attempt(false);
  const wait = new QueueWait(queue, wake, plan);
  try {
    return await wait.run();
  } finally {
    const ending = wait.end();
    if (ending) await ending;
  }
}

class QueueWait extends LineWait<QueuePlan> {
  /** Our entry may be in the Redis queue: leave it unless we end up with the lock. */
  private queued = false;
  /** Our entry, offered to the holder here; set until its release has run. */
  private offer?: EntryOffer;
  /** A holder's release queued us with a fresh heartbeat: no attempt (no refresh) needed until then. */
  private freshUntil = 0;

  async run(): Promise<Attempt> {
    const notAtHead = await this.untilHead();
    if (notAtHead) return notAtHead;
    if (!this.wake.isListening(this.plan.channel)) {
      // A lock seen free needs no subscription (and Redis being away shows at once); else we
      // subscribe before we queue, so the release's message to us cannot come too early.
      const first = await this.plan.attempt(false);
      if (first.acquired) return this.tookInRedis(first);
    }
    this.listener = await this.wake.listen(this.plan.channel);
    return this.untilAnswer();
  }

  /** Undefined when nothing was left to wait for (a local hand-off's taker, most often). */
  end(): Promise<void> | undefined {
    this.slot?.close();
    this.abort.dispose();
    const settling = this.settleOffer();
    if (settling || (this.queued && !this.acquired)) return this.endInRedis(settling);
    this.leaveLine();
    return undefined;
  }

  /** Our entry may be in the Redis queue: wait out a release that took it, and leave it unless we hold. */
  private async endInRedis(settling: Promise<void> | undefined): Promise<void> {
    await settling;
    if (this.queued && !this.acquired) await this.plan.leave().catch(() => undefined);
    this.leaveLine();
  }

  private leaveLine(): void {
    // The channel is this process's own, counted by no one: it stays subscribed a moment even
    // with nobody left in line, so the process's next wait needs no SSUBSCRIBE and no first look.
    this.listener?.close(true);
    this.place.leave(this.acquired);
  }

  protected async step(): Promise<Attempt | undefined> {
    if (this.slot?.isTaken && (await this.slot.handed())) return this.takeLocalHandOff(this.slot);
    if (this.abort.isAborted()) return ABORTED;
    const message = this.listener!.take(this.plan.owner);
    if (message !== undefined) return this.takeQueueHandOff(message);
    // Queued already, we keep our heartbeat fresh as any queued waiter does; else we wait here.
    if (!this.queued && this.plan.heldHere?.()) return this.awaitReleaseHere();
    this.listener!.mark();
    const freshMs = this.freshUntil - Date.now();
    if (freshMs > 0) {
      await this.listener!.wait(Math.min(freshMs, this.deadline - Date.now()), this.interrupt());
      // A hand-off under way wins over the time running out: the next round takes it.
      return Date.now() >= this.deadline && !this.slot?.isTaken ? this.timedOut() : undefined;
    }
    const attempt = await this.attemptInRedis();
    if (!attempt || attempt.acquired) return attempt;
    this.queued = true;
    if (this.slot?.isTaken) return undefined;
    this.queue.noteHolderTtl(this.plan.lineKey, attempt.holderTtlMs, Date.now());
    const leftMs = this.deadline - Date.now();
    if (leftMs <= 0) return attempt;
    await this.listener!.wait(queueSleepMs(attempt.holderTtlMs, leftMs), this.interrupt());
    return undefined;
  }

  /** A holder here has the lock: only its hand-off or its release helps, and the release queues us. */
  private async awaitReleaseHere(): Promise<Attempt | undefined> {
    if (this.deadline > Date.now()) {
      this.offer ??= this.queue.offers.offer(this.plan.lineKey, this.plan.kind, this.plan.owner);
    }
    const answer = await this.awaitHolderHere();
    const settling = this.settleOffer();
    if (settling) await settling;
    return answer;
  }

  /** Waits out the release that took our entry (undefined: nothing to wait for); an entry not taken is withdrawn. */
  private settleOffer(): Promise<void> | undefined {
    const offer = this.offer;
    if (!offer) return undefined;
    this.offer = undefined;
    if (!offer.queued) {
      this.queue.offers.withdraw(this.plan.lineKey, offer);
      return undefined;
    }
    return offer.queued.then((queued) => {
      if (queued !== false) this.queued = true; // when unsure, leave the queue if we give up
      if (queued) this.freshUntil = Date.now() + QUEUE_TIMING.refreshMs;
    });
  }

  /** undefined when a local hand-off overtook a failed attempt (the next round takes it). */
  private async attemptInRedis(): Promise<Attempt | undefined> {
    this.queue.takeYield(this.plan.lineKey); // the queue decides the turns: no standing back
    try {
      const attempt = await this.plan.attempt(true);
      return attempt.acquired ? this.tookInRedis(attempt) : attempt;
    } catch (error) {
      if (this.slot?.isTaken && (await this.slot.handed())) return undefined;
      throw error;
    }
  }

  private tookInRedis(attempt: Attempt): Attempt {
    this.queued = false; // the script dropped our entry, if any
    this.acquired = true;
    this.queue.runOver(this.plan.lineKey);
    return attempt;
  }

  private takeLocalHandOff(slot: HandoffSlot): Attempt {
    const handed = slot.handedAttempt();
    if (this.queued) {
      // Our entry must not be handed the lock we now hold, nor linger. Handed our own value by a
      // script, queue-acquire finding us the owner drops it (sent behind the script on the lock
      // connection, it lands after it; not queue-claim, which leaves the queue alone); handed on
      // within the run (the run's value, not ours), leaving the queue does.
      this.queued = false;
      void (handed.runOwner ? this.plan.leave() : this.plan.attempt(false)).catch(() => undefined);
    }
    return handed;
  }

  /**
   * A release handed us the lock (for the claim lease) and said so: start now, claim once begun.
   * A token in the message is ours only if we fence. A fenced waiter handed the lock without one
   * (by a holder of another kind, before the lock had a fence counter) claims with queue-acquire,
   * which draws it one.
   */
  private takeQueueHandOff(message: string): Attempt {
    this.queued = false; // the release took our entry off the queue
    this.queue.runOver(this.plan.lineKey);
    const resource = this.plan.fencedResource;
    const token = resource === undefined ? undefined : message.split(' ')[1];
    const sentAt = Date.now();
    if (resource !== undefined && !token) {
      const claim = this.plan.attempt(false);
      const drawn = claim.then((claimed) => ({ handed: claimed.acquired, fenceToken: claimed.fenceToken }));
      return {
        acquired: true,
        fromQueue: true,
        sentAt,
        fenceTokenDrawn: drawnFenceToken(drawn, resource),
        confirmation: confirmed(claim.then((claimed) => claimed.acquired)),
      };
    }
    const { answer, sendNow } = claimOnceBegun(() => this.plan.claim());
    const fenceToken = token ? Number(token) : undefined;
    return { acquired: true, fromQueue: true, sentAt, fenceToken, confirmation: confirmed(answer), sendClaim: sendNow };
  }
}
