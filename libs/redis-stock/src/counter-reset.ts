import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { redisCall } from './counter-loading';
import { stockKeys } from './redis-stock-commands';

/**
 * How long a reset holds the counter's claim at most: longer than a reset normally takes (its
 * transaction, then every process's acknowledgement). Past it, grabs go on with the old counter,
 * whose orders the database refuses once the reset commits.
 */
const RESET_CLAIM_MS = 30_000;

/**
 * Runs a coupon's reset in the database (`reset`, which starts a new counter epoch) with Redis's
 * counter held: from the claim on, redis-stream accepts nothing and no process loads the counter.
 * Once the reset committed, the counter, its epoch, its buyers (and given-up buyers) and the claim
 * are dropped together, so the next grab loads the new sale. A reset that fails releases the claim and changes nothing.
 */
export async function resetCounter<T>(redis: Redis, couponId: number, reset: () => Promise<T>): Promise<T> {
  const keys = stockKeys(couponId);
  const token = `reset:${randomBytes(8).toString('hex')}`;
  await redisCall(() => redis.set(keys.loading, token, 'PX', RESET_CLAIM_MS));
  let result: T;
  try {
    result = await reset();
  } catch (error) {
    await redis.stockUnclaim(keys.loading, token).catch(() => undefined);
    throw error;
  }
  const { counter, reservations, generation, epoch, loading, buyers, deadBuyers } = keys;
  await redisCall(() => redis.stockVoid(counter, reservations, generation, epoch, loading, buyers, deadBuyers));
  return result;
}
