import type { EntityManager } from 'typeorm';
import { isUniqueViolation } from '../pg-errors';
import { DuplicateGrantError } from '../stock.errors';
import type { GrantRequest } from './deduction.types';

/**
 * Inserts the grant inside the caller's transaction, stamped with the database clock, and returns
 * the coupon's remaining stock as this transaction sees it.
 */
export async function insertGrant(
  tx: EntityManager,
  req: GrantRequest,
  segment: number,
  /** The database clock's reading at entry, as text: a JS Date would drop the microseconds. */
  enteredAt: string,
  fenceToken?: number,
): Promise<number> {
  try {
    const [row] = await tx.query<{ remaining: number }[]>(
      `INSERT INTO grants (coupon_id, segment, user_id, strategy, replica, fence_token, entered_at, left_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz, clock_timestamp())
       RETURNING (SELECT SUM(stock)::int FROM stock_segments WHERE coupon_id = $1) AS remaining`,
      [req.couponId, segment, req.userId, req.strategy, req.replica, fenceToken ?? null, enteredAt],
    );
    return row.remaining;
  } catch (error) {
    if (isUniqueViolation(error, 'grants_one_per_user')) throw new DuplicateGrantError(req.couponId, req.userId);
    throw error;
  }
}
