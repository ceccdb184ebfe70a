/**
 * The queue wait mode's clocks. A queued waiter's entry lives `heartbeatMs` unless refreshed; a
 * waiting head refreshes it at least every `refreshMs` (its sleeps are bounded by that), so only
 * a dead (or frozen) waiter's entry goes stale, and a release skips it. A waiter handed the lock
 * has `claimMs` to claim it before the next attempt passes it on: a dead waiter costs at most
 * about a second, and a dropped wake-up at most one `refreshMs` poll.
 */
export const QUEUE_TIMING = { heartbeatMs: 1000, refreshMs: 300, claimMs: 1000 } as const;

/** How long a queued head may sleep: until a wake-up, the holder's TTL, or its next heartbeat. */
export function queueSleepMs(holderTtlMs: number | undefined, leftMs: number): number {
  const ttl = holderTtlMs === undefined || holderTtlMs < 0 ? leftMs : Math.max(holderTtlMs, 1);
  return Math.max(0, Math.min(ttl, leftMs, QUEUE_TIMING.refreshMs));
}
