import type { DataSource } from 'typeorm';
import { CommitAbortedError, StaleFenceError } from '../stock.errors';
import type { Granted, GrantRequest, SectionHooks } from './deduction.types';
import { insertGrant } from './grant-writer';

const READ_SQL = `
  SELECT idx, stock, clock_timestamp()::text AS at FROM stock_segments
   WHERE coupon_id = $1 AND stock > 0 AND ($2::int IS NULL OR idx = $2)
   ORDER BY idx LIMIT 1`;

/**
 * The seeds' critical section, bug included: read the stock, do the work, write `read − 1` back as
 * an absolute value. Without a lock around it, two sections that read the same value both write
 * the same result: one decrement is lost while both grants stand. The write and the grant are one
 * transaction, so a crash never leaves one without the other. Returns null when the row (or every
 * row) is empty.
 */
export async function readModifyWrite(db: DataSource, req: GrantRequest, hooks: SectionHooks): Promise<Granted | null> {
  const [row] = await db.query(READ_SQL, [req.couponId, req.segment ?? null]);
  if (!row) return null;
  await hooks.work();
  if (hooks.signal?.aborted) throw new CommitAbortedError({ cause: hooks.signal.reason });
  const fence = hooks.fenceToken;
  return db.transaction(async (tx) => {
    const update = await tx.queryRunner!.query(
      fence === undefined
        ? 'UPDATE stock_segments SET stock = $3 WHERE coupon_id = $1 AND idx = $2'
        : 'UPDATE stock_segments SET stock = $3, fence = $4 WHERE coupon_id = $1 AND idx = $2 AND fence < $4',
      fence === undefined ? [req.couponId, row.idx, row.stock - 1] : [req.couponId, row.idx, row.stock - 1, fence],
      true,
    );
    if (fence !== undefined && update.affected === 0) throw new StaleFenceError(fence);
    const remaining = await insertGrant(tx, req, row.idx, row.at, fence);
    return { segment: row.idx, remaining };
  });
}
