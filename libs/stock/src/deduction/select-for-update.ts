import type { StockDatabase } from '../database/stock-database';
import type { Granted, GrantRequest, SectionHooks } from './deduction.types';
import { readStock, writeBack } from './stock-read';

/**
 * The seeds' read-modify-write inside a transaction that locks the row it read: exact, but each
 * holder keeps a pooled connection and the row busy for the whole work. After the work, the write
 * and the grant are one statement, so the row lock outlives the work by two round trips (the
 * write, then COMMIT).
 */
export function selectForUpdate(db: StockDatabase, req: GrantRequest, hooks: SectionHooks): Promise<Granted | null> {
  return db.transaction(async (query) => {
    const row = await readStock(query, req, true);
    if (!row) return null;
    await hooks.work();
    const remaining = await writeBack(query, req, row);
    return remaining === null ? null : { segment: row.segment, remaining };
  });
}
