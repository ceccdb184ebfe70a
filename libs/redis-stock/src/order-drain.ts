import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { orderKeys } from './order-commands';

/** How long to wait for a drain, and what may cut it short. */
export interface DrainWait {
  readonly timeoutMs: number;
  /** Ends the wait early: the answer then says not drained. */
  readonly signal?: AbortSignal;
}

/** What Redis holds of a coupon's orders once the wait for the drain ended. */
export interface DrainedStream {
  /** The order stream emptied: every accepted order persisted or dead-lettered. */
  readonly drained: boolean;
  /** How long the wait lasted (ms). */
  readonly waitedMs: number;
  /** Redis's stock counter; null when absent (never loaded, or lost with Redis). */
  readonly counter: number | null;
  /** Orders moved to the dead-letter stream: accepted, never granted. */
  readonly deadLettered: number;
}

/** Often enough that a drain is seen within a few tens of ms, rarely enough to cost Redis nothing. */
const POLL_MS = 25;

/**
 * Waits until the coupon's order stream is empty, at most `timeoutMs`, then reads the counter and
 * the dead letters. The caller judges the accepted orders after, drained or not.
 */
export async function awaitOrderDrain(
  redis: Pick<Redis, 'xlen' | 'get'>,
  couponId: number,
  wait: DrainWait,
): Promise<DrainedStream> {
  const keys = orderKeys(couponId);
  const started = Date.now();
  let drained = false;
  for (;;) {
    drained = (await redis.xlen(keys.orders)) === 0;
    if (drained || wait.signal?.aborted || Date.now() - started >= wait.timeoutMs) break;
    await sleep(POLL_MS, undefined, { signal: wait.signal }).catch(() => undefined);
  }
  const waitedMs = Date.now() - started;
  const [counter, deadLettered] = await Promise.all([redis.get(keys.counter), redis.xlen(keys.dead)]);
  return { drained, waitedMs, counter: counter === null ? null : Number(counter), deadLettered };
}
