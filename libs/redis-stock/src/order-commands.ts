import type { Redis, Result } from 'ioredis';
import type { Refusal } from '@app/stock';
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
    orderLookup(
      buyers: string,
      orders: string,
      deadBuyers: string,
      userId: string,
    ): Result<[state: 'pending' | 'dead-lettered', detail: string] | null, Context>;
    orderDeadLetter(
      counter: string,
      epoch: string,
      buyers: string,
      orders: string,
      dead: string,
      failures: string,
      deadBuyers: string,
      group: string,
      consumer: string,
      orderId: string,
      limit: number,
      reason: string,
      refusal: Refusal | '',
    ): Result<-1 | 0 | 1, Context>;
    orderDropEmpty(orders: string): Result<0 | 1, Context>;
  }
}

const SCRIPTS = {
  orderAccept: { file: 'order-accept.lua', keys: 5 },
  orderLookup: { file: 'order-lookup.lua', keys: 3 },
  orderDeadLetter: { file: 'order-dead-letter.lua', keys: 7 },
  orderDropEmpty: { file: 'order-drop-empty.lua', keys: 1 },
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
  /** Hash orderId → failures of the order's own counted so far. */
  readonly failures: string;
  /** Hash userId → the order given up, `{"orderId":…,"reason":…}`: what the grant lookup tells. */
  readonly deadBuyers: string;
}

export function orderKeys(couponId: number): OrderKeys {
  const { counter, epoch, loading, buyers, deadBuyers } = stockKeys(couponId);
  return {
    counter,
    epoch,
    loading,
    buyers,
    orders: `${counter}:orders`,
    dead: `${counter}:dead`,
    failures: `${counter}:failures`,
    deadBuyers,
  };
}

/** The pattern of every coupon's order stream, and the coupon an order stream belongs to. */
export const ORDER_STREAM_PATTERN = 'stock:{coupon:*}:orders';
export function orderStreamCoupon(key: string): number | null {
  const match = /^stock:\{coupon:(\d+)\}:orders$/.exec(key);
  return match ? Number(match[1]) : null;
}

/** The persisters' consumer group, on every coupon's stream. */
export const PERSISTERS_GROUP = 'persisters';
