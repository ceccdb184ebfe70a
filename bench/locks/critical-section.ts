import type { Redis } from 'ioredis';

/** How long every worker runs the section, uncounted, before its window: the contenders and the rings alike. */
export const WARM_UP_MS = 300;

/**
 * The micro-bench's critical section: read a counter, then write it back plus one, as the coupon
 * deduction does. Every contender runs it under its lock, and the ceiling runs it with none.
 */
export async function counterSection(redis: Redis, counterKey: string): Promise<void> {
  const value = Number((await redis.get(counterKey)) ?? 0);
  await redis.set(counterKey, value + 1);
}
