import type { Redis, Result } from 'ioredis';
import { defineScripts, defineStockCommands, stockKeys } from './redis-stock-commands';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    orderAccept(
      counter: string,
      epoch: string,
      claim: string,
      buyers: string,
      orders: string,
      userId: string,
      replica: string,
      crash: string,
    ): Result<[left: number, orderId: string] | -1 | -2 | -3, Context>;
    orderPending(buyers: string, orders: string, userId: string): Result<string | null, Context>;
    orderDeadLetter(
      counter: string,
      buyers: string,
      orders: string,
      dead: string,
      group: string,
      orderId: string,
      deliveries: number,
    ): Result<0 | 1, Context>;
    orderDropEmpty(orders: string): Result<0 | 1, Context>;
    orderGiveUp(
      orders: string,
      dead: string,
      buyers: string,
      counter: string,
      epoch: string,
      group: string,
      orderId: string,
      reason: string,
      orderEpoch: string,
    ): Result<0 | 1, Context>;
  }
}

const SCRIPTS = {
  orderAccept: { file: 'order-accept.lua', keys: 5 },
  orderPending: { file: 'order-pending.lua', keys: 2 },
  orderDeadLetter: { file: 'order-dead-letter.lua', keys: 4 },
  orderDropEmpty: { file: 'order-drop-empty.lua', keys: 1 },
  orderGiveUp: { file: 'order-give-up.lua', keys: 5 },
} as const;

/** Registers the order scripts (and the stock scripts they share the counter with) on a client once. */
export function defineOrderCommands(client: Redis): void {
  defineStockCommands(client);
  defineScripts(client, SCRIPTS);
}

/** A coupon's order keys, beside its counter and under the same hash tag (one cluster slot). */
export interface OrderKeys {
  readonly counter: string;
  readonly epoch: string;
  readonly loading: string;
  readonly buyers: string;
  readonly orders: string;
  readonly dead: string;
}

export function orderKeys(couponId: number): OrderKeys {
  const { counter, epoch, loading, buyers } = stockKeys(couponId);
  return { counter, epoch, loading, buyers, orders: `${counter}:orders`, dead: `${counter}:dead` };
}

/** The pattern of every coupon's order stream, and the coupon an order stream belongs to. */
export const ORDER_STREAM_PATTERN = 'stock:{coupon:*}:orders';
export function orderStreamCoupon(key: string): number | null {
  const match = /^stock:\{coupon:(\d+)\}:orders$/.exec(key);
  return match ? Number(match[1]) : null;
}

/** The persisters' consumer group, on every coupon's stream. */
export const PERSISTERS_GROUP = 'persisters';
