import type { Attempt } from '../verbs/attempt';
import { HandoffSlot } from './handoff-slot';
import type { LocalQueue } from './local-queue';
import type { WakeSubscriber, WakeListener } from './wake-subscriber';

export interface WaitPlan {
  /** The local line's key (the lock key: one line per resource). */
  readonly lineKey: string;
  readonly wakeChannel: string;
  readonly waitMs: number;
  /** True when this flow already holds the lock here: a reentrant acquire must not queue behind its own waiters. */
  readonly skipLine: boolean;
  /** One attempt in Redis. */
  attempt(): Promise<Attempt>;
  /** Accept the lock straight from a holder of this process with the same kind of lock. */
  readonly handoff?: { readonly kind: string; readonly owner: string; readonly leaseMs: number };
  /**
   * One round trip to Redis, taken before the first attempt after this process ended a run of
   * hand-offs: the other processes' waiters, woken by the same release, reach Redis first.
   */
  giveWay?(): Promise<unknown>;
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
  if (plan.skipLine) {
    const reentered = await plan.attempt();
    if (reentered.acquired) return reentered;
  }
  const place = queue.enter(plan.lineKey, Math.max(0, deadline - Date.now()));
  const slot = plan.handoff && new HandoffSlot(plan.handoff.kind, plan.handoff.owner, plan.handoff.leaseMs);
  // A claimed slot is settled by the holder within one script call; until then nothing we saw counts.
  const handedOver = async () => slot !== undefined && (await slot.handed());
  const handed = (): Attempt => ({ acquired: true, handedOver: true, sentAt: slot!.leaseFrom });
  let listener: WakeListener | undefined;
  try {
    if (!(await place.turn)) return { acquired: false, holderTtlMs: queue.holderTtl(plan.lineKey, Date.now()) };
    if (slot) place.offer(slot);
    for (;;) {
      if (await handedOver()) return handed();
      if (slot && plan.heldHere?.()) {
        // Asking Redis would only load it: wait for the holder next door to hand over or let go.
        const leftMs = deadline - Date.now();
        if (leftMs <= 0) return { acquired: false, holderTtlMs: queue.holderTtl(plan.lineKey, Date.now()) };
        await untilFirst(leftMs, slot.claimed(), queue.whenReleasedHere(plan.lineKey));
        continue;
      }
      listener?.mark();
      let attempt: Attempt;
      try {
        if (plan.giveWay && queue.takeYield(plan.lineKey)) await plan.giveWay();
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
      await listener.wait(sleepBound(attempt.holderTtlMs, leftMs), slot?.claimed());
    }
  } finally {
    slot?.close();
    listener?.close();
    place.leave();
  }
}

/** Resolves when any of `events` settles or after `ms`, clearing its timer either way. */
async function untilFirst(ms: number, ...events: Promise<unknown>[]): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  try {
    await Promise.race([timeout, ...events]);
  } finally {
    clearTimeout(timer);
  }
}

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
