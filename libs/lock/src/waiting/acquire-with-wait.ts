import type { Attempt } from '../verbs/attempt';
import { ABORTED, watchAbort } from './abort-watch';
import { HandoffSlot } from './handoff-slot';
import type { LocalQueue } from './local-queue';
import { untilFirst } from './queue-wait';
import type { WakeSubscriber, WakeListener } from './wake-subscriber';

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
 * Acquire, waiting up to waitMs. Within the process, contenders line up (FIFO) and only the head
 * tries Redis. The head subscribes to the lock's wake-up channel before retrying (so a release
 * between its attempt and its sleep is not missed), then sleeps until a wake-up, the holder's
 * remaining TTL, or a hand-off from a holder of this process, whichever comes first. Returns the
 * acquiring attempt (or the hand-off), or the last failed one when the wait budget ran out.
 */
export async function acquireWithWait(queue: LocalQueue, wake: WakeSubscriber, plan: WaitPlan): Promise<Attempt> {
  const deadline = Date.now() + plan.waitMs;
  if (plan.skipLine || plan.waitMs <= 0) {
    if (plan.signal?.aborted) return ABORTED;
    const reentered = await plan.attempt();
    if (reentered.acquired || plan.waitMs <= 0) return reentered;
  }
  const abort = watchAbort(plan.signal);
  const place = queue.enter(plan.lineKey, Math.max(0, deadline - Date.now()));
  const slot = plan.handoff && new HandoffSlot(plan.handoff.kind, plan.handoff.owner, plan.handoff.leaseMs);
  // A claimed slot is settled by the holder within one script call; until then nothing we saw counts.
  const handedOver = async () => slot !== undefined && (await slot.handed());
  const handed = (): Attempt => ({
    acquired: true,
    handedOver: true,
    sentAt: slot!.leaseFrom,
    fenceToken: slot!.fenceToken,
  });
  let listener: WakeListener | undefined;
  try {
    const atHead = await Promise.race([place.turn, abort.aborted.then(() => false)]);
    if (abort.isAborted()) return ABORTED;
    if (!atHead) return { acquired: false, holderTtlMs: queue.holderTtl(plan.lineKey, Date.now()) };
    if (slot) place.offer(slot);
    for (;;) {
      if (await handedOver()) return handed();
      if (abort.isAborted()) return ABORTED;
      if (slot && plan.heldHere?.()) {
        // Asking Redis would only load it: wait for the holder next door to hand over or let go.
        const leftMs = deadline - Date.now();
        if (leftMs <= 0) return { acquired: false, holderTtlMs: queue.holderTtl(plan.lineKey, Date.now()) };
        await untilFirst(leftMs, slot.claimed(), queue.whenReleasedHere(plan.lineKey), abort.aborted);
        continue;
      }
      listener?.mark();
      let attempt: Attempt;
      try {
        if (plan.listeners && queue.takeYield(plan.lineKey)) {
          // Listen first, so the other processes count us as waiting when they stand back in turn.
          listener ??= await wake.listen(plan.wakeChannel);
          const others = (await plan.listeners()) - 1;
          // The release that ended our run was published before NUMSUB ran, so its wake-up (if
          // we got it at all) is in by now: only a later release, someone else's, wakes us here.
          listener.mark();
          if (others > 0)
            await listener.wait(Math.min(plan.yieldMs ?? DEFAULT_YIELD_MS, Math.max(0, deadline - Date.now())));
          listener.mark();
        }
        attempt = await plan.attempt();
      } catch (error) {
        if (await handedOver()) return handed();
        throw error;
      }
      if (attempt.acquired) {
        queue.tookInRedis(plan.lineKey);
        return attempt;
      }
      if (slot?.isTaken) continue;
      queue.noteHolderTtl(plan.lineKey, attempt.holderTtlMs, Date.now());
      const leftMs = deadline - Date.now();
      if (leftMs <= 0) return attempt;
      if (!listener) {
        listener = await wake.listen(plan.wakeChannel);
        continue; // retry at once: the holder may have released before we were subscribed
      }
      const interrupt = slot ? Promise.race([slot.claimed(), abort.aborted]) : abort.aborted;
      await listener.wait(sleepBound(attempt.holderTtlMs, leftMs), interrupt);
    }
  } finally {
    abort.dispose();
    slot?.close();
    // Stay subscribed a moment only for a next head of ours: a process with nobody waiting must
    // not look like a waiting one to the others (they stand back for waiters, see `listeners`).
    listener?.close(queue.length(plan.lineKey) > 1);
    place.leave();
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
