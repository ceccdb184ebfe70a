import type { Attempt } from '../verbs/attempt';
import { pause } from './pause';
import type { WakeListener } from './wake-subscriber';

/** How the front of a line waits for the lock in Redis. */
export interface FrontWait {
  /** The time left; 0 makes exactly one attempt. */
  readonly waitMs: number;
  readonly signal?: AbortSignal;
  /** One attempt in Redis. */
  attempt(): Promise<Attempt>;
  /** The longest pause after failed attempt number `tries`. */
  pauseMs(failed: Attempt, tries: number): number;
  /** Wake-ups that end a pause early (the fair queue's); without them, pauses run their course. */
  readonly wake?: WakeListener;
}

/** Attempts until one takes the lock, the time runs out, or the signal aborts; returns the last attempt. */
export async function waitAsFront(plan: FrontWait): Promise<Attempt> {
  const deadline = performance.now() + plan.waitMs;
  for (let tries = 1; ; tries++) {
    plan.wake?.mark();
    const attempt = await plan.attempt();
    const leftMs = deadline - performance.now();
    if (attempt.acquired || leftMs <= 0 || plan.signal?.aborted) return attempt;
    const ms = Math.min(plan.pauseMs(attempt, tries), leftMs);
    await (plan.wake ? plan.wake.wait(ms, plan.signal) : pause(ms, plan.signal));
    if (plan.signal?.aborted) return attempt;
  }
}

/** How long a front may pause after a failed attempt: until the holder's lease ends, at most `boundMs`. */
export function pauseBound(holderTtlMs: number | undefined, boundMs: number): number {
  return holderTtlMs !== undefined && holderTtlMs > 0 ? Math.min(holderTtlMs, boundMs) : boundMs;
}
