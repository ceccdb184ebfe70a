import type { StockDatabase } from '../database/stock-database';
import { CouponNotFoundError } from '../stock.errors';

/** What Redis's counter of a coupon is loaded with, read in a new counter epoch. */
export interface CounterLoad {
  /** The stock of record once every persist of an earlier epoch has committed or been refused. */
  readonly stock: number;
  /** The new epoch: orders accepted on this counter carry it. */
  readonly epoch: string;
  /**
   * The users holding a grant, with its order id: Redis's buyers again. A grant made otherwise has
   * '0-0', an id no stream entry has.
   */
  readonly buyers: readonly (readonly [userId: string, orderId: string])[];
}

/**
 * Starts a new counter epoch and reads what to load the counter with. The UPDATE waits for every
 * persist holding the coupon's row (FOR SHARE); a persist that comes after finds the new epoch
 * and refuses the orders of the old one. The reads then run in a snapshot taken after the UPDATE
 * (read committed), so they see every persist the epoch let through.
 */
export function loadCounter(db: StockDatabase, couponId: number): Promise<CounterLoad> {
  return db.transaction(async (query) => {
    const [row] = await query<{ epoch: string }>(
      'UPDATE coupons SET counter_epoch = counter_epoch + 1 WHERE id = $1 RETURNING counter_epoch::text AS epoch',
      [couponId],
      'counter-epoch',
    );
    if (!row) throw new CouponNotFoundError(couponId);
    const [{ stock }] = await query<{ stock: number }>(
      'SELECT COALESCE(SUM(stock), 0)::int AS stock FROM stock_segments WHERE coupon_id = $1',
      [couponId],
      'counter-stock',
    );
    const buyers = await query<{ userId: string; orderId: string }>(
      `SELECT user_id AS "userId", COALESCE(order_id, '0-0') AS "orderId" FROM grants WHERE coupon_id = $1`,
      [couponId],
      'counter-buyers',
    );
    return { stock, epoch: row.epoch, buyers: buyers.map((b) => [b.userId, b.orderId] as const) };
  });
}
