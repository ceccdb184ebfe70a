import type { Redis } from 'ioredis';
import { StockUnavailableError } from '@app/stock';
import { stockKeys } from './redis-stock-commands';

/** What a script on the counter answers while the counter is not loaded. */
export const NOT_LOADED = -2;

/**
 * Runs a script on a coupon's counter; when it answers NOT_LOADED (a reset or a Redis restart
 * dropped the counter), loads the counter from the stock of record, unless another process
 * loaded it first, and runs it once more. Redis failures come out as StockUnavailableError.
 */
export async function withLoadedCounter<T>(
  redis: Redis,
  couponId: number,
  currentStock: (couponId: number) => Promise<number>,
  script: () => Promise<T>,
): Promise<T> {
  let answer = await redisCall(script);
  if (answer === NOT_LOADED) {
    const fromDatabase = await currentStock(couponId);
    await redisCall(() => redis.stockLoad(stockKeys(couponId).counter, fromDatabase));
    answer = await redisCall(script);
  }
  return answer;
}

export async function redisCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new StockUnavailableError({ cause: error });
  }
}
