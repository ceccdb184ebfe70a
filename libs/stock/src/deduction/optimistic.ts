import type { DataSource } from 'typeorm';
import { RetriesExhaustedError } from '../stock.errors';
import type { Granted, GrantRequest, SectionHooks } from './deduction.types';
import { insertGrant } from './grant-writer';

export interface OptimisticOptions {
  readonly maxAttempts: number;
  /** The first retry's pause window; it doubles per attempt up to maxBackoffMs. */
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  /** Told of every lost attempt, so retries can be counted. */
  readonly onRetry?: () => void;
}

/**
 * Read stock and version, work, then write only if the version is unchanged. A loser re-reads and
 * tries again, at most `maxAttempts` times.
 */
export async function optimistic(
  db: DataSource,
  req: GrantRequest,
  hooks: SectionHooks,
  options: OptimisticOptions,
): Promise<Granted | null> {
  for (let attempt = 1; attempt <= options.maxAttempts; attempt++) {
    const [row] = await db.query<({ idx: number; stock: number; version: number; at: string } | undefined)[]>(
      `SELECT idx, stock, version, clock_timestamp()::text AS at FROM stock_segments
        WHERE coupon_id = $1 AND stock > 0 AND ($2::int IS NULL OR idx = $2) ORDER BY idx LIMIT 1`,
      [req.couponId, req.segment ?? null],
    );
    if (!row) return null;
    await hooks.work();
    const granted = await db.transaction(async (tx) => {
      const update = await tx.queryRunner!.query(
        `UPDATE stock_segments SET stock = $3, version = version + 1
          WHERE coupon_id = $1 AND idx = $2 AND version = $4`,
        [req.couponId, row.idx, row.stock - 1, row.version],
        true,
      );
      if (update.affected === 0) return null;
      const remaining = await insertGrant(tx, req, row.idx, row.at);
      return { segment: row.idx, remaining, retries: attempt - 1 };
    });
    if (granted) return granted;
    options.onRetry?.();
    // Full jitter over an exponentially growing window: losers spread out instead of colliding again.
    const windowMs = Math.min(options.maxBackoffMs, options.backoffMs * 2 ** Math.min(attempt, 10));
    await new Promise((r) => setTimeout(r, Math.random() * windowMs));
  }
  throw new RetriesExhaustedError(options.maxAttempts);
}
