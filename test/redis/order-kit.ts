import type { Redis } from 'ioredis';
import { defineOrderCommands, PERSISTERS_GROUP, type OrderKeys } from '../../libs/redis-stock/src/order-commands';
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

/** order-accept of `user`'s order, as `replica` would send it (with a crash point, when given). */
export const acceptOrder = (redis: Redis, keys: OrderKeys, user: string, replica = 'x', crash = '') =>
  redis.orderAccept(keys.counter, keys.epoch, keys.loading, keys.buyers, keys.orders, user, replica, crash);

/** order-dead-letter's keys and group, and the persister (`consumer`) asking: its leading arguments. */
export const deadLetterArgs = (keys: OrderKeys, consumer = 'c1') =>
  [
    keys.counter,
    keys.epoch,
    keys.buyers,
    keys.orders,
    keys.dead,
    keys.failures,
    keys.deadBuyers,
    PERSISTERS_GROUP,
    consumer,
  ] as const;
