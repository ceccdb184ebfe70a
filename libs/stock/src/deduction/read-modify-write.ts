import type { RunQuery } from '../database/stock-database';
import { CommitAbortedError, StaleFenceError } from '../stock.errors';
import type { Granted, GrantRequest, SectionHooks } from './deduction.types';
import { readStock, writeBack } from './stock-read';

/**
 * The seeds' critical section, bug included: read the stock, do the work, write `read − 1` back as
 * an absolute value. Without a lock around it, two sections that read the same value both write
 * the same result: one decrement is lost while both grants stand. Two round trips in all (the
 * read, then the write with its grant), so a lock around it is held for as little as can be.
 * Null when the row (or every row) is empty.
 */
export async function readModifyWrite(
  query: RunQuery,
  req: GrantRequest,
  hooks: SectionHooks,
): Promise<Granted | null> {
  await hooks.checkpoint?.('read');
  const row = await readStock(query, req);
  if (!row) return null;
  await hooks.work();
  const fence = await hooks.fenceToken?.catch((error: unknown) => {
    throw new CommitAbortedError({ cause: error });
  });
  await hooks.checkpoint?.('write');
  if (hooks.signal?.aborted) throw new CommitAbortedError({ cause: hooks.signal.reason });
  const remaining = await writeBack(query, req, row, fence);
  if (remaining === null) {
    if (fence !== undefined) throw new StaleFenceError(fence);
    return null; // the row went away under us (a reset to fewer segments)
  }
  return { segment: row.segment, remaining };
}
