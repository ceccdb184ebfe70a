import type { DataSource } from 'typeorm';
import type { Granted, GrantRequest, SectionHooks } from './deduction.types';
import { insertGrant } from './grant-writer';

/**
 * The seeds' read-modify-write inside a transaction that locks the row it read: exact, but each
 * holder keeps a pooled connection busy for the whole work.
 */
export async function selectForUpdate(db: DataSource, req: GrantRequest, hooks: SectionHooks): Promise<Granted | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<({ idx: number; stock: number; at: string } | undefined)[]>(
      `SELECT idx, stock, clock_timestamp()::text AS at FROM stock_segments
        WHERE coupon_id = $1 AND stock > 0 AND ($2::int IS NULL OR idx = $2)
        ORDER BY idx LIMIT 1 FOR UPDATE`,
      [req.couponId, req.segment ?? null],
    );
    if (!row) return null;
    await hooks.work();
    await tx.query('UPDATE stock_segments SET stock = $3 WHERE coupon_id = $1 AND idx = $2', [
      req.couponId,
      row.idx,
      row.stock - 1,
    ]);
    const remaining = await insertGrant(tx, req, row.idx, row.at);
    return { segment: row.idx, remaining };
  });
}
