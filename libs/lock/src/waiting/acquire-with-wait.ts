import type { Attempt } from '../verbs/attempt';
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
}

/**
 * Acquire, waiting up to waitMs. Within the process, contenders line up (FIFO) and only the head
 * tries Redis. The head subscribes to the lock's wake-up channel before retrying (so a release
 * between its attempt and its sleep is not missed), then sleeps until a wake-up or the holder's
 * remaining TTL, whichever comes first, and tries again. Returns the acquiring attempt, or the
 * last failed one when the wait budget ran out.
 */
export async function acquireWithWait(queue: LocalQueue, wake: WakeSubscriber, plan: WaitPlan): Promise<Attempt> {
  const deadline = Date.now() + plan.waitMs;
  if (plan.skipLine) {
    const reentered = await plan.attempt();
    if (reentered.acquired) return reentered;
  }
  const place = queue.enter(plan.lineKey, Math.max(0, deadline - Date.now()));
  let listener: WakeListener | undefined;
  try {
    if (!(await place.turn)) return { acquired: false, holderTtlMs: queue.holderTtl(plan.lineKey, Date.now()) };
    for (;;) {
      listener?.mark();
      const attempt = await plan.attempt();
      if (attempt.acquired) return attempt;
      queue.noteHolderTtl(plan.lineKey, attempt.holderTtlMs, Date.now());
      const leftMs = deadline - Date.now();
      if (leftMs <= 0) return attempt;
      if (!listener) {
        listener = await wake.listen(plan.wakeChannel);
        continue; // retry at once: the holder may have released before we were subscribed
      }
      await listener.wait(sleepBound(attempt.holderTtlMs, leftMs));
    }
  } finally {
    listener?.close();
    place.leave();
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
