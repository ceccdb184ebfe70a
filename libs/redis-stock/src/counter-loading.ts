import type { Redis } from 'ioredis';
import { StockUnavailableError } from '@app/stock';
import { stockKeys } from './redis-stock-commands';

/** What a script on the counter answers while the counter is not loaded. */
export const NOT_LOADED = -2;

/**
 * Runs a script on a coupon's counter; when it answers NOT_LOADED (a reset or a Redis restart
 * dropped the counter), loads the counter from the stock of record, unless another process
 * loaded it first or a reset came in between the read and the load, and runs it once more. Redis failures come out as StockUnavailableError.
 */
export async function withLoadedCounter<T>(
  redis: Redis,
  couponId: number,
  currentStock: (couponId: number) => Promise<number>,
  script: () => Promise<T>,
): Promise<T> {
  let answer = await redisCall(script);
  if (answer === NOT_LOADED) {
    await loadCounter(redis, couponId, currentStock);
    answer = await redisCall(script);
  }
  return answer;
}

/** Loads of a counter a reset may void, before giving up. */
const MAX_LOADS = 5;

/** Loads the counter from the stock of record, read again whenever a reset came in between. */
async function loadCounter(
  redis: Redis,
  couponId: number,
  currentStock: (couponId: number) => Promise<number>,
): Promise<void> {
  const keys = stockKeys(couponId);
  for (let attempt = 1; ; attempt += 1) {
    const readAt = (await redisCall(() => redis.get(keys.generation))) ?? '0';
    const fromDatabase = await currentStock(couponId);
    const loaded = await redisCall(() => redis.stockLoadAt(keys.counter, keys.generation, fromDatabase, readAt));
    if (loaded !== -1) return;
    // Resets are rare admin acts: one after another this long means something else is wrong.
    if (attempt === MAX_LOADS) throw new StockUnavailableError({ cause: new Error('coupon reset during every load') });
  }
}

export async function redisCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new StockUnavailableError({ cause: error });
  }
}
