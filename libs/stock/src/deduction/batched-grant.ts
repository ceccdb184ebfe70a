import type { RunQuery } from '../database/stock-database';
import type { BatchOutcome } from '../batching/coupon-batcher';
import { DuplicateGrantError } from '../stock.errors';
import { batchGrantSql } from './batch-grant-sql';
import type { Granted, GrantRequest } from './deduction.types';

/**
 * db-batched: one statement grants a whole batch of one coupon. $1 coupon, $2 the users in order,
 * $3 strategy, $4 replica. Besides the grants, it says which users held one already (before the
 * statement, or committed by another replica meanwhile) and the stock left.
 */
const BATCHED_GRANT_SQL = `${batchGrantSql({
  asked: `
    SELECT DISTINCT ON (user_id) user_id, ord
      FROM unnest($2::varchar[]) WITH ORDINALITY AS a(user_id, ord) ORDER BY user_id, ord`,
  values: { strategy: '$3', replica: '$4' },
  returning: 'user_id',
})}
  SELECT
    (SELECT COALESCE(json_agg(json_build_array(user_id, segment)), '[]'::json) FROM inserted) AS granted,
    ARRAY(SELECT a.user_id FROM asked a WHERE NOT EXISTS (SELECT 1 FROM fresh f WHERE f.user_id = a.user_id)
          UNION ALL
          SELECT p.user_id FROM placed p
           WHERE p.idx IS NOT NULL AND NOT EXISTS (SELECT 1 FROM inserted i WHERE i.user_id = p.user_id)) AS held,
    ((SELECT stock FROM batch) - (SELECT COUNT(*) FROM inserted))::int AS remaining`;

interface BatchRow {
  /** [userId, segment] of every grant this statement inserted. */
  readonly granted: [string, number][];
  /** Users who already held a grant (before the statement, or committed by another replica meanwhile). */
  readonly held: string[];
  /** The coupon's stock left after this statement. */
  readonly remaining: number;
}

/**
 * Runs one batch of grabs of one coupon as one statement and judges each: granted; GRANT.DUPLICATE
 * (held already, or the same user earlier in the batch); sold out (null) only when no stock is
 * left; otherwise unjudged (its unit went to a grant that turned out a duplicate): retry.
 */
export async function batchedGrant(
  query: RunQuery,
  couponId: number,
  requests: readonly GrantRequest[],
): Promise<BatchOutcome<Granted | null>[]> {
  if (requests.length === 0) return [];
  const [row] = await query<BatchRow>(
    BATCHED_GRANT_SQL,
    [couponId, requests.map((r) => r.userId), requests[0].strategy, requests[0].replica],
    'batched-grant',
  );
  const segmentOf = new Map(row.granted);
  const held = new Set(row.held);
  const first = new Map<string, BatchOutcome<Granted | null>>();
  return requests.map((req) => {
    const earlier = first.get(req.userId);
    // The same user again in this batch: a duplicate of a grant (new or held), else the same fate.
    if (earlier)
      return earlier.kind === 'retry' || (earlier.kind === 'answer' && !earlier.value) ? earlier : duplicate(req);
    const segment = segmentOf.get(req.userId);
    const outcome: BatchOutcome<Granted | null> =
      segment !== undefined
        ? { kind: 'answer', value: { segment, remaining: row.remaining } }
        : held.has(req.userId)
          ? duplicate(req)
          : row.remaining > 0
            ? { kind: 'retry' }
            : { kind: 'answer', value: null };
    first.set(req.userId, outcome);
    return outcome;
  });
}

function duplicate(req: GrantRequest): BatchOutcome<never> {
  return { kind: 'error', error: new DuplicateGrantError(req.couponId, req.userId) };
}
