import type { DataSource } from 'typeorm';
import { isUniqueViolation } from '../pg-errors';
import { CommitAbortedError, DuplicateGrantError, StaleFenceError } from '../stock.errors';
import type { Granted, GrantRequest, SectionHooks } from './deduction.types';
import { preparedQuery } from './prepared-query';

const READ_SQL = `
  SELECT idx, stock, clock_timestamp()::text AS at FROM stock_segments
   WHERE coupon_id = $1 AND stock > 0 AND ($2::int IS NULL OR idx = $2)
   ORDER BY idx LIMIT 1`;

// The write-back and the grant in one statement: one implicit transaction and one round trip
// (the lock is held across it, so every round trip saved is throughput). With a fencing token
// the row is written only if no newer token wrote it; then no grant is inserted either. The
// statement sees the stock from before its own UPDATE, hence the row's new value added by hand.
const WRITE_SQL = `
  WITH written AS (
    UPDATE stock_segments SET stock = $3, fence = COALESCE($8::bigint, fence)
     WHERE coupon_id = $1 AND idx = $2 AND ($8::bigint IS NULL OR fence < $8::bigint)
    RETURNING idx)
  INSERT INTO grants (coupon_id, segment, user_id, strategy, replica, fence_token, entered_at, left_at)
  SELECT $1, idx, $4, $5, $6, $8::bigint, $7::timestamptz, clock_timestamp() FROM written
  RETURNING (SELECT COALESCE(SUM(stock), 0)::int FROM stock_segments WHERE coupon_id = $1 AND idx <> $2) + $3 AS remaining`;

/**
 * The seeds' critical section, bug included: read the stock, do the work, write `read − 1` back as
 * an absolute value. Without a lock around it, two sections that read the same value both write
 * the same result: one decrement is lost while both grants stand. The write and the grant are one
 * statement, so a crash never leaves one without the other. Returns null when the row (or every
 * row) is empty.
 */
export async function readModifyWrite(db: DataSource, req: GrantRequest, hooks: SectionHooks): Promise<Granted | null> {
  const [row] = await preparedQuery<{ idx: number; stock: number; at: string }>(db, 'rmw-read', READ_SQL, [
    req.couponId,
    req.segment ?? null,
  ]);
  if (!row) return null;
  await hooks.work();
  if (hooks.signal?.aborted) throw new CommitAbortedError({ cause: hooks.signal.reason });
  const fence = hooks.fenceToken;
  let written: { remaining: number }[];
  try {
    written = await preparedQuery(db, 'rmw-write', WRITE_SQL, [
      req.couponId,
      row.idx,
      row.stock - 1,
      req.userId,
      req.strategy,
      req.replica,
      row.at,
      fence ?? null,
    ]);
  } catch (error) {
    if (isUniqueViolation(error, 'grants_one_per_user')) throw new DuplicateGrantError(req.couponId, req.userId);
    throw error;
  }
  if (written.length === 0) {
    if (fence !== undefined) throw new StaleFenceError(fence);
    return null; // the row went away under us (a reset to fewer segments)
  }
  return { segment: row.idx, remaining: written[0].remaining };
}
