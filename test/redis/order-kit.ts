import type { Redis } from 'ioredis';
import { defineOrderCommands } from '../../libs/redis-stock/src/order-commands';
import { probeClient } from './lock-kit';

/** For a spec of the order stream: a client with the order scripts as commands, closed after the spec. */
export function orderClient(): Redis {
  const redis = probeClient();
  defineOrderCommands(redis);
  afterAll(() => redis.quit());
  return redis;
}

// From a random start, so spec files sharing one Redis never take the same coupon's keys.
let lastCouponId = 1_000_000 + Math.floor(Math.random() * 1_000_000_000);

/** A coupon id no other test has used: its order keys start empty. */
export const nextCouponId = (): number => ++lastCouponId;
