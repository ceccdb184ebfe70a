import type { RunQuery } from '../database/stock-database';
import type { BatchOutcome } from '../batching/coupon-batcher';
import { DuplicateGrantError } from '../stock.errors';
import type { Granted, GrantRequest } from './deduction.types';

/**
 * db-batched: one statement grants a whole batch of one coupon. $1 coupon, $2 the users in order,
 * $3 strategy, $4 replica. Read committed makes three things matter:
 * - `locked` takes every stock row of the coupon FOR UPDATE first. Another replica's batch holds
 *   those locks until it commits; once had, FOR UPDATE returns the rows' latest stock, whereas a
 *   plain read in this statement would see its start, before the wait.
 * - `fresh` (users without a grant) reads grants from the statement's start, so a grant committed
 *   meanwhile by another replica is missed there: ON CONFLICT DO NOTHING on the one-per-user key
 *   then skips the insert, and the stock is decremented by the grants really inserted only.
 * - `batch` aggregates over `locked`, so its entry time is taken after the locks. `taken` needs no
 *   reference: a data-modifying CTE always runs to completion.
 * The n-th fresh user gets the n-th unit (rows in index order); users past the stock get none.
 */
const BATCHED_GRANT_SQL = `
  WITH locked AS (
    SELECT idx, stock FROM stock_segments WHERE coupon_id = $1 ORDER BY idx FOR UPDATE),
  batch AS (
    SELECT nextval('grant_batches') AS id, clock_timestamp() AS at, COALESCE(SUM(stock), 0)::int AS stock FROM locked),
  asked AS (
    SELECT DISTINCT ON (user_id) user_id, ord
      FROM unnest($2::varchar[]) WITH ORDINALITY AS a(user_id, ord) ORDER BY user_id, ord),
  fresh AS (
    SELECT user_id, row_number() OVER (ORDER BY ord) AS n FROM asked a
     WHERE NOT EXISTS (SELECT 1 FROM grants g WHERE g.coupon_id = $1 AND g.user_id = a.user_id)),
  slots AS (
    SELECT idx, SUM(stock) OVER (ORDER BY idx) AS upto FROM locked WHERE stock > 0),
  placed AS (
    SELECT f.user_id, (SELECT s.idx FROM slots s WHERE s.upto >= f.n ORDER BY s.idx LIMIT 1) AS idx FROM fresh f),
  inserted AS (
    INSERT INTO grants (coupon_id, segment, user_id, strategy, replica, batch_id, entered_at, left_at)
    SELECT $1, p.idx, p.user_id, $3, $4, b.id, b.at, clock_timestamp() FROM placed p, batch b WHERE p.idx IS NOT NULL
    ON CONFLICT ON CONSTRAINT grants_one_per_user DO NOTHING
    RETURNING user_id, segment),
  taken AS (
    UPDATE stock_segments s SET stock = s.stock - c.k
      FROM (SELECT segment, COUNT(*)::int AS k FROM inserted GROUP BY segment) c
     WHERE s.coupon_id = $1 AND s.idx = c.segment
    RETURNING s.idx)
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
