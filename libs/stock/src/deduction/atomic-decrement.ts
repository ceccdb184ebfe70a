import type { DataSource } from 'typeorm';
import type { Granted, GrantRequest } from './deduction.types';
import { insertGrant } from './grant-writer';

/**
 * No lock: one conditional statement decrements the first row that still has stock. The row lock
 * the UPDATE takes serialises writers inside PostgreSQL, and `stock > 0` is re-checked after it.
 */
export async function atomicDecrement(db: DataSource, req: GrantRequest): Promise<Granted | null> {
  return db.transaction(async (tx) => {
    const update = await tx.queryRunner!.query(
      `UPDATE stock_segments SET stock = stock - 1
        WHERE coupon_id = $1 AND idx = (
          SELECT idx FROM stock_segments
           WHERE coupon_id = $1 AND stock > 0 AND ($2::int IS NULL OR idx = $2)
           ORDER BY idx LIMIT 1 FOR UPDATE)
        RETURNING idx, clock_timestamp()::text AS at`,
      [req.couponId, req.segment ?? null],
      true,
    );
    const [row] = update.records as { idx: number; at: string }[];
    if (!row) return null;
    const remaining = await insertGrant(tx, req, row.idx, row.at);
    return { segment: row.idx, remaining };
  });
}
