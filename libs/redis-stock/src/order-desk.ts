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

  /** The user's order while it waits in the stream, else null. */
  pending(couponId: number, userId: string): Promise<string | null> {
    const keys = orderKeys(couponId);
    return redisCall(() => this.redis.orderPending(keys.buyers, keys.orders, userId));
  }
}
