import type { RunQuery } from '../database/stock-database';
import { RetriesExhaustedError } from '../stock.errors';
import type { Granted, GrantRequest, SectionHooks } from './deduction.types';
import { VERSIONED_WRITE_SQL } from './grant-sql';
import { insertingGrant, readStock } from './stock-read';

export interface OptimisticOptions {
  readonly maxAttempts: number;
  /** The first retry's pause window; it doubles per attempt up to maxBackoffMs. */
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  /** Told of every lost attempt, so retries can be counted. */
  readonly onRetry?: () => void;
}

/**
 * Read stock and version, work, then write only if the version is unchanged (one statement with
 * its grant). A loser reads and works again, at most `maxAttempts` times: the work sits between
 * read and write, which is where the retries come from.
 */
export async function optimistic(
  query: RunQuery,
  req: GrantRequest,
  hooks: SectionHooks,
  options: OptimisticOptions,
): Promise<Granted | null> {
  for (let attempt = 1; attempt <= options.maxAttempts; attempt++) {
    const row = await readStock(query, req);
    if (!row) return null;
    await hooks.work();
    const [written] = await insertingGrant(req, () =>
      query<{ remaining: number }>(
        VERSIONED_WRITE_SQL,
        [req.couponId, row.segment, row.version, req.userId, req.strategy, req.replica, row.at],
        'versioned-write',
      ),
    );
    if (written) return { segment: row.segment, remaining: written.remaining, retries: attempt - 1 };
    options.onRetry?.();
    // Full jitter over an exponentially growing window: losers spread out instead of colliding again.
    const windowMs = Math.min(options.maxBackoffMs, options.backoffMs * 2 ** Math.min(attempt, 10));
    await new Promise((r) => setTimeout(r, Math.random() * windowMs));
  }
  throw new RetriesExhaustedError(options.maxAttempts);
}
