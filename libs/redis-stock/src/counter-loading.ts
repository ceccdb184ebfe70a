import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { StockUnavailableError, type CounterLoad } from '@app/stock';
import { stockKeys, type StockKeys } from './redis-stock-commands';

/** What a script on the counter answers while the counter is not loaded. */
export const NOT_LOADED = -2;

/** Starts a new counter epoch in the database and reads what to load the counter with. */
export type CounterSource = (couponId: number) => Promise<CounterLoad>;

/** How long a load claim lasts: longer than the database's answer takes (its client gives up at 15 s). */
export const LOAD_CLAIM_MS = 20_000;
/** How long a grab waits for another process's load, or a reset, before it answers unavailable. */
const LOAD_WAIT_MS = 30_000;
const LOAD_POLL_MS = 20;
/** Buyers recorded per script call while loading. */
const BUYERS_PER_CALL = 1000;

/**
 * Runs a script on a coupon's counter; while it answers NOT_LOADED (a reset or a Redis restart
 * dropped the counter, or a load or a reset is running), loads the counter or waits for it, and
 * runs it again. Redis failures come out as StockUnavailableError.
 */
export async function withLoadedCounter<T>(
  redis: Redis,
  couponId: number,
  source: CounterSource,
  script: () => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + LOAD_WAIT_MS;
  let answer = await redisCall(script);
  while (answer === NOT_LOADED) {
    await loadCounter(redis, couponId, source, deadline);
    answer = await redisCall(script);
  }
  return answer;
}

/**
 * Loads the counter unless it is loaded: one process at a time (the claim), in a new counter epoch
 * the database starts, so no persist of an order accepted on a lost counter can commit after the
 * stock is read. The users holding grants become buyers again before the counter appears. A reset
 * takes the claim over while it runs and drops it after, so a load that read the stock before the
 * reset cannot set the counter from it.
 */
async function loadCounter(redis: Redis, couponId: number, source: CounterSource, deadline: number): Promise<void> {
  const keys = stockKeys(couponId);
  const token = randomBytes(8).toString('hex');
  for (;;) {
    if (Date.now() > deadline)
      throw new StockUnavailableError({ cause: new Error("the coupon's counter was not loaded in time") });
    const claim = await redisCall(() =>
      redis.stockLoadClaim(keys.counter, keys.epoch, keys.loading, token, LOAD_CLAIM_MS),
    );
    if (claim === 0) return;
    if (claim === -1) {
      await sleep(LOAD_POLL_MS);
      continue;
    }
    try {
      if ((await loadAsClaimed(redis, keys, await source(couponId), token)) === 1) return;
    } catch (error) {
      await redis.stockUnclaim(keys.loading, token).catch(() => undefined);
      throw error;
    }
  }
}

async function loadAsClaimed(redis: Redis, keys: StockKeys, load: CounterLoad, token: string) {
  for (let i = 0; i < load.buyers.length; i += BUYERS_PER_CALL) {
    const pairs = load.buyers.slice(i, i + BUYERS_PER_CALL).flat();
    if ((await redisCall(() => redis.stockLoadBuyers(keys.buyers, keys.loading, token, ...pairs))) < 0) return -1;
  }
  return redisCall(() => redis.stockLoadEpoch(keys.counter, keys.epoch, keys.loading, load.stock, load.epoch, token));
}

export async function redisCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new StockUnavailableError({ cause: error });
  }
}
