import type { Redis } from 'ioredis';

/**
 * How long every worker runs the section (under its lock, if any), uncounted, before its window:
 * the contenders and the rings alike. Long enough for V8 to have compiled each lock's hot code: after
 * 300 ms its optimising compiler still took a fifth of the CPU samples 3 s into the window (perf,
 * 2-vCPU guest), and off the main thread redlock spent about 90 µs of CPU per grant against 20
 * once warmed 3 s, ours about 190 against 120 (the same after 8 s).
 */
export const WARM_UP_MS = 3000;

/**
 * The micro-bench's critical section: read a counter, then write it back plus one, as the coupon
 * deduction does. Every contender runs it under its lock, and the ceiling runs it with none.
 */
export async function counterSection(redis: Redis, counterKey: string): Promise<void> {
  const value = Number((await redis.get(counterKey)) ?? 0);
  await redis.set(counterKey, value + 1);
}
