import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { translateDbError } from '../pg-errors';
import { CouponNotFoundError } from '../stock.errors';
import { atomicDecrement } from './atomic-decrement';
import type { Granted, GrantRequest, SectionHooks } from './deduction.types';
import { optimistic, type OptimisticOptions } from './optimistic';
import { readModifyWrite } from './read-modify-write';
import { selectForUpdate } from './select-for-update';

/** The stock rows that still had stock at one instant (a hint: only a locked read decides). */
export interface StockPeek {
  readonly segments: number;
  readonly open: number[];
}

/** Every way of taking one unit of stock; each returns null when the stock it may touch is empty. */
@Injectable()
export class DeductionService {
  constructor(private readonly db: DataSource) {}

  /** Unlocked look at which rows have stock. Stock only falls, so an empty row stays empty. */
  async peek(couponId: number): Promise<StockPeek> {
    const [row] = await this.run(() =>
      this.db.query<(StockPeek | undefined)[]>(
        `SELECT c.segments, ARRAY(SELECT idx FROM stock_segments s WHERE s.coupon_id = c.id AND s.stock > 0 ORDER BY idx)::int[] AS open
           FROM coupons c WHERE c.id = $1`,
        [couponId],
      ),
    );
    if (!row) throw new CouponNotFoundError(couponId);
    return { segments: row.segments, open: row.open };
  }

  readModifyWrite(req: GrantRequest, hooks: SectionHooks): Promise<Granted | null> {
    return this.run(() => readModifyWrite(this.db, req, hooks));
  }

  atomic(req: GrantRequest): Promise<Granted | null> {
    return this.run(() => atomicDecrement(this.db, req));
  }

  forUpdate(req: GrantRequest, hooks: SectionHooks): Promise<Granted | null> {
    return this.run(() => selectForUpdate(this.db, req, hooks));
  }

  optimistic(req: GrantRequest, hooks: SectionHooks, options: OptimisticOptions): Promise<Granted | null> {
    return this.run(() => optimistic(this.db, req, hooks, options));
  }

  private async run<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      return translateDbError(error);
    }
  }
}
