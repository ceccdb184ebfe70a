import type { RunQuery } from '../database/stock-database';
import type { Granted, GrantRequest } from './deduction.types';
import { ATOMIC_GRANT_SQL } from './grant-sql';
import { insertingGrant } from './stock-read';

/**
 * No lock and no section: one statement decrements the first row that still has stock and inserts
 * the grant. The row lock the UPDATE takes serialises writers inside PostgreSQL for that one
 * statement, and `stock > 0` is checked again once the lock is had. Null: nothing left.
 */
export async function atomicDecrement(query: RunQuery, req: GrantRequest): Promise<Granted | null> {
  const [row] = await insertingGrant(req, () =>
    query<Granted>(
      ATOMIC_GRANT_SQL,
      [req.couponId, req.userId, req.strategy, req.replica, req.segment ?? null],
      'atomic-grant',
    ),
  );
  return row ?? null;
}
