import { isUniqueViolation } from '../pg-errors';
import type { RunQuery } from '../database/stock-database';
import { DuplicateGrantError } from '../stock.errors';
import type { GrantRequest } from './deduction.types';
import { READ_STOCK_FOR_UPDATE_SQL, READ_STOCK_SQL, WRITE_BACK_SQL } from './grant-sql';

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
 * `fence` given is not above the row's): the stock left, or null when nothing was written.
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
