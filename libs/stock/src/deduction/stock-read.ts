import { isUniqueViolation } from '../pg-errors';
import type { RunQuery } from '../database/stock-database';
import { DuplicateGrantError, StaleFenceError } from '../stock.errors';
import type { GrantRequest } from './deduction.types';
import {
  NEWER_FENCE_SQL,
  READ_STOCK_FENCED_SQL,
  READ_STOCK_FOR_UPDATE_SQL,
  READ_STOCK_SQL,
  WRITE_BACK_SQL,
} from './grant-sql';

/** A stock row as a section reads it. */
export interface StockRow {
  readonly segment: number;
  readonly stock: number;
  readonly version: number;
  /** Entry time, database clock, as text. */
  readonly at: string;
}

/** The row a section works on: the first with stock, or the request's own segment; null if none has any. */
export async function readStock(query: RunQuery, req: GrantRequest, forUpdate = false): Promise<StockRow | null> {
  const [row] = await query<StockRow>(
    forUpdate ? READ_STOCK_FOR_UPDATE_SQL : READ_STOCK_SQL,
    [req.couponId, req.segment ?? null],
    forUpdate ? 'read-stock-for-update' : 'read-stock',
  );
  return row ?? null;
}

/**
 * fenced: the same row, read while registering `fence` on it, so that a holder with an older token
 * can no longer write it. StaleFenceError when a newer token got there first; null when sold out.
 */
export async function readStockFenced(query: RunQuery, req: GrantRequest, fence: number): Promise<StockRow | null> {
  const [row] = await query<StockRow>(
    READ_STOCK_FENCED_SQL,
    [req.couponId, req.segment ?? null, fence],
    'read-stock-fenced',
  );
  if (row) return row;
  const [{ newer }] = await query<{ newer: boolean }>(NEWER_FENCE_SQL, [req.couponId, fence], 'newer-fence');
  if (newer) throw new StaleFenceError(fence);
  return null;
}

/** Runs a statement that inserts a grant; a second grant for the same user is GRANT.DUPLICATE. */
export async function insertingGrant<T>(req: GrantRequest, statement: () => Promise<T>): Promise<T> {
  try {
    return await statement();
  } catch (error) {
    if (isUniqueViolation(error, 'grants_one_per_user')) throw new DuplicateGrantError(req.couponId, req.userId);
    throw error;
  }
}

/**
 * Writes `read − 1` back to the row read, with the buyer's grant, in one statement (refused when a
 * `fence` given is below the row's: a newer holder has read it since): the stock left, or null
 * when nothing was written.
 */
export async function writeBack(
  query: RunQuery,
  req: GrantRequest,
  row: StockRow,
  fence?: number,
): Promise<number | null> {
  const [written] = await insertingGrant(req, () =>
    query<{ remaining: number }>(
      WRITE_BACK_SQL,
      [req.couponId, row.segment, row.stock - 1, req.userId, req.strategy, req.replica, row.at, fence ?? null],
      'write-back',
    ),
  );
  return written ? written.remaining : null;
}
