import { Injectable } from '@nestjs/common';
import { StockDatabase } from '../database/stock-database';
import { CouponNotFoundError } from '../stock.errors';
import { CouponBatcher } from '../batching/coupon-batcher';
import { atomicDecrement } from './atomic-decrement';
import { batchedGrant } from './batched-grant';
import { loadCounter, type CounterLoad } from './counter-load';
import type { Granted, GrantRequest, SectionHooks } from './deduction.types';
import { optimistic, type OptimisticOptions } from './optimistic';
import { orderGrant, type OrdersPersisted, type StreamOrder } from './order-grant';
import { ordersGranted } from './orders-granted';
import { readModifyWrite } from './read-modify-write';
import { selectForUpdate } from './select-for-update';

/** The stock rows that had stock at one instant (a hint: only a locked read decides). */
export interface StockPeek {
  readonly segments: number;
  /** Rows with stock, by index. */
  readonly open: number[];
  /** Their stock, in the same order as `open`. */
  readonly stocks: number[];
}

const PEEK_SQL = `
  SELECT c.segments,
         ARRAY(SELECT idx FROM stock_segments s WHERE s.coupon_id = c.id AND s.stock > 0 ORDER BY idx)::int[] AS open,
         ARRAY(SELECT stock FROM stock_segments s WHERE s.coupon_id = c.id AND s.stock > 0 ORDER BY idx)::int[] AS stocks
    FROM coupons c WHERE c.id = $1`;

/** Grabs one batch statement takes at most. */
export const MAX_BATCH = 256;

/** Every way of taking one unit of stock; each returns null when the stock it may touch is empty. */
@Injectable()
export class DeductionService {
  /** db-batched: grabs of one coupon queue while its statement is in flight; the next takes them all. */
  private readonly batcher: CouponBatcher<number, GrantRequest, Granted | null>;

  constructor(private readonly db: StockDatabase) {
    this.batcher = new CouponBatcher((couponId, reqs) => batchedGrant(this.db.query, couponId, reqs), MAX_BATCH);
  }

  /** Unlocked look at which rows have stock; COUPON.NOT_FOUND for an unknown coupon. */
  async peek(couponId: number): Promise<StockPeek> {
    const [row] = await this.db.query<StockPeek>(PEEK_SQL, [couponId], 'peek');
    if (!row) throw new CouponNotFoundError(couponId);
    return row;
  }

  readModifyWrite(req: GrantRequest, hooks: SectionHooks): Promise<Granted | null> {
    return readModifyWrite(this.db.query, req, hooks);
  }

  atomic(req: GrantRequest): Promise<Granted | null> {
    return atomicDecrement(this.db.query, req);
  }

  /**
   * Joins the coupon's batch queue; answers once the statement that judged this grab has
   * committed. `onTaken` runs when a batch takes the grab, before its statement.
   */
  batched(req: GrantRequest, onTaken?: () => void): Promise<Granted | null> {
    return this.batcher.submit(req.couponId, req, onTaken);
  }

  /** redis-stream: a batch of one coupon's accepted orders written as grants in one transaction. */
  persistOrders(couponId: number, orders: readonly StreamOrder[], strategy: string): Promise<OrdersPersisted> {
    return this.db.transaction((query) => orderGrant(query, couponId, orders, strategy));
  }

  /** Redis's counter of the coupon is loaded: a new counter epoch, and what to load it with. */
  loadCounter(couponId: number): Promise<CounterLoad> {
    return loadCounter(this.db, couponId);
  }

  /** redis-stream: the orders among these that hold a grant (theirs: order id and user), read afresh. */
  ordersGranted(couponId: number, orders: readonly StreamOrder[]): Promise<Set<string>> {
    return ordersGranted(this.db.query, couponId, orders);
  }

  /** True when PostgreSQL answers within `timeoutMs`. */
  reachable(timeoutMs: number): Promise<boolean> {
    return this.db.ping(timeoutMs);
  }

  forUpdate(req: GrantRequest, hooks: SectionHooks): Promise<Granted | null> {
    return selectForUpdate(this.db, req, hooks);
  }

  optimistic(req: GrantRequest, hooks: SectionHooks, options: OptimisticOptions): Promise<Granted | null> {
    return optimistic(this.db.query, req, hooks, options);
  }
}
