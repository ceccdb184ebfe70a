import type { RunQuery } from '../database/stock-database';
import { CommitAbortedError, StaleFenceError } from '../stock.errors';
import type { Granted, GrantRequest, SectionHooks } from './deduction.types';
import { readStock, readStockFenced, writeBack } from './stock-read';

/**
 * The seeds' critical section, bug included: read the stock, do the work, write `read − 1` back as
 * an absolute value. Without a lock around it, two sections that read the same value both write
 * the same result: one decrement is lost while both grants stand. Two round trips in all (the
 * read, then the write with its grant), so a lock around it is held for as little as can be.
 * Null when the row (or every row) is empty.
 *
 * With a fencing token, the read registers it on the row: a write is refused once a newer holder
 * has read, not only once it has written, so a stale holder cannot write first and sell the unit
 * the newer holder also read.
 */
export async function readModifyWrite(
  query: RunQuery,
  req: GrantRequest,
  hooks: SectionHooks,
): Promise<Granted | null> {
  await hooks.checkpoint?.('read');
  const fence = await hooks.fenceToken?.catch((error: unknown) => {
    throw new CommitAbortedError({ cause: error });
  });
  const row = fence === undefined ? await readStock(query, req) : await readStockFenced(query, req, fence);
  if (!row) return null;
  await hooks.work();
  await hooks.checkpoint?.('write');
  if (hooks.signal?.aborted) throw new CommitAbortedError({ cause: hooks.signal.reason });
  const remaining = await writeBack(query, req, row, fence);
  if (remaining === null) {
    if (fence !== undefined) throw new StaleFenceError(fence); // a newer holder read the row since
    return null; // the row went away under us (a reset to fewer segments)
  }
  return { segment: row.segment, remaining };
}
