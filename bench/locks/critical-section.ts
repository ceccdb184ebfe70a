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
 * How long every measurement's processes run together, on its own resource (or ring), before what
 * they do counts. They have each warmed up alone, then idled for the common start; from there every
 * step of ours got faster for 2 to 6 s, system calls as much as JavaScript (socket trace, 2-vCPU
 * guest: a release's write 82 µs in the first second, 36 µs from the fifth on), and a 5 s window
 * caught ours at 0.6 to 0.9 of its later rate. Redlock settled within about 1.5 s, the rings within 2.
 */
export const SETTLE_MS = 5000;

/** Where the settle's sections count, beside the window's counter. */
export function settleCounterKey(counterKey: string): string {
  return `${counterKey}:settle`;
}

/**
 * The micro-bench's critical section: read a counter, then write it back plus one, as the coupon
 * deduction does. Every contender runs it under its lock, and the ceiling runs it with none.
 * Answers the value it read: under a lock, the section's place in the order of the grants.
 */
export async function counterSection(redis: Redis, counterKey: string): Promise<number> {
  const value = Number((await redis.get(counterKey)) ?? 0);
  await redis.set(counterKey, value + 1);
  return value;
}
