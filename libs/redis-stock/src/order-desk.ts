import type { Redis } from 'ioredis';
import { DuplicateGrantError, SoldOutError } from '@app/stock';
import { redisCall, withLoadedCounter, type CounterSource } from './counter-loading';
import { defineOrderCommands, orderKeys } from './order-commands';

export interface OrderRequest {
  readonly couponId: number;
  readonly userId: string;
  /** The accepting replica. */
  readonly replica: string;
  /** Chaos: the crash point the persister that takes this order dies at ('after-commit'). */
  readonly persisterCrash?: string;
}

/** An accepted order that is not a grant: waiting in the stream, or given up (dead-lettered). */
export type OrderOutcome =
  | { readonly state: 'pending'; readonly orderId: string }
  | { readonly state: 'dead-lettered'; readonly orderId: string; readonly reason: string };

export interface AcceptedOrder {
  readonly orderId: string;
  /** Units left in Redis after this one. */
  readonly left: number;
}

/**
 * redis-stream's front desk: Redis takes the unit and queues the order in one script, and the
 * buyer is answered before the database knows. The counter is redis-lua's, loaded the same way.
 */
export class OrderDesk {
  constructor(
    private readonly redis: Redis,
    private readonly source: CounterSource,
  ) {
    defineOrderCommands(redis);
  }

  /** Accepts the order; SoldOutError when Redis has no unit left, DuplicateGrantError when the user has an order. */
  async accept(req: OrderRequest): Promise<AcceptedOrder> {
    const keys = orderKeys(req.couponId);
    const answer = await withLoadedCounter(this.redis, req.couponId, this.source, () =>
      this.redis.orderAccept(
        keys.counter,
        keys.epoch,
        keys.loading,
        keys.buyers,
        keys.orders,
        req.userId,
        req.replica,
        req.persisterCrash ?? '',
      ),
    );
    if (answer === -3) throw new DuplicateGrantError(req.couponId, req.userId);
    if (!Array.isArray(answer)) throw new SoldOutError(req.couponId);
    const [left, orderId] = answer;
    return { orderId, left };
  }

  /** The user's order while it waits in the stream, or the one given up; null when neither. */
  async lookup(couponId: number, userId: string): Promise<OrderOutcome | null> {
    const keys = orderKeys(couponId);
    const found = await redisCall(() => this.redis.orderLookup(keys.buyers, keys.orders, keys.deadBuyers, userId));
    if (!found) return null;
    const [state, detail] = found;
    if (state === 'pending') return { state, orderId: detail };
    const { orderId, reason } = JSON.parse(detail) as { orderId: string; reason: string };
    return { state, orderId, reason };
  }
}
