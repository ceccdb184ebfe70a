import type { Attempt, Refusal } from '../verbs/attempt';
import { pause } from './pause';
import type { WakeListener } from './wake-subscriber';

/** How the front of a line waits for the lock in Redis. */
export interface FrontWait {
  /** performance.now() at which the wait budget ends, fixed when `run` was called; past it, one attempt. */
  readonly deadline: number;
  readonly signal?: AbortSignal;
  /** One attempt in Redis. */
  attempt(): Promise<Attempt>;
  /** The longest pause after failed attempt number `tries`. */
  pauseMs(failed: Refusal, tries: number): number;
  /** Wake-ups that end a pause early (the fair queue's); without them, pauses run their course. */
  readonly wake?: WakeListener;
}

/** Attempts until one takes the lock, the deadline passes, or the signal aborts; returns the last attempt. */
export async function waitAsFront(plan: FrontWait): Promise<Attempt> {
  for (let tries = 1; ; tries++) {
    plan.wake?.mark();
    const attempt = await plan.attempt();
    const leftMs = plan.deadline - performance.now();
    if (attempt.acquired || leftMs <= 0 || plan.signal?.aborted) return attempt;
    const ms = Math.min(plan.pauseMs(attempt, tries), leftMs);
    await (plan.wake ? plan.wake.wait(ms, plan.signal) : pause(ms, plan.signal));
    if (plan.signal?.aborted) return attempt;
  }
}

/**
 * How long a front may pause after a refusal: until the holder's lease ends (0 in its last
 * millisecond: attempt again at once), at most `boundMs`.
 */
export function pauseBound(failed: Refusal, boundMs: number): number {
  return failed.why === 'held' ? Math.min(failed.holderTtlMs, boundMs) : boundMs;
}
