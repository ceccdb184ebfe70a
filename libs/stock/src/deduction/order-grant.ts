import type { RunQuery } from '../database/stock-database';
import { batchGrantSql } from './batch-grant-sql';

/** An order accepted by Redis (redis-stream), as its stream entry carries it. */
export interface StreamOrder {
  /** The stream entry id. */
  readonly orderId: string;
  readonly userId: string;
  /** The replica that accepted it (and answered 202). */
  readonly replica: string;
  /** When Redis accepted it, microseconds since the epoch on Redis's clock. */
  readonly acceptedUs: string;
  /** The counter epoch it was accepted in (see CounterLoad). */
  readonly epoch: string;
}

/**
 * Why the database refused an order, for good (a later delivery changes nothing):
 * - `superseded`: accepted in an earlier counter epoch (before a reset, or on a counter since
 *   reloaded); the counter of the current epoch never counted it;
 * - `sold-out`: no stock of record left for it;
 * - `duplicate`: its user holds a grant already.
 */
export type Refusal = 'superseded' | 'sold-out' | 'duplicate';

export interface OrdersPersisted {
  /** Orders that hold their grant now: inserted by this statement, or by an earlier delivery. */
  readonly granted: ReadonlySet<string>;
  /** Grant rows this statement inserted (the stock of record fell by as many). */
  readonly inserted: number;
  /** The other orders: orderId → why the database refused it. */
  readonly refused: ReadonlyMap<string, Refusal>;
}

/**
 * The coupon's counter epoch, its row held FOR SHARE until the commit: a reset or a counter load
 * (which UPDATE it) waits for this persist, and a persist that comes after them reads their epoch.
 */
const EPOCH_SQL = 'SELECT counter_epoch::text AS epoch FROM coupons WHERE id = $1 FOR SHARE';

/**
 * Then the coupon's stock rows, in a statement of their own: batches of two persisters run one
 * after the other, and the next statement's snapshot, taken once the lock is had, sees every batch
 * committed before (read committed). In one statement, a persister that waited behind another would
 * read grants from before that commit.
 */
const LOCK_STOCK_SQL = 'SELECT idx FROM stock_segments WHERE coupon_id = $1 ORDER BY idx FOR UPDATE';

/**
 * redis-stream's persist, after EPOCH_SQL and LOCK_STOCK_SQL, for the orders of the current epoch: one statement writes a batch of one coupon's
 * orders. $1 coupon, $2 users, $3 order ids, $4 replicas, $5 accept times (µs), $6 strategy. ON
 * CONFLICT on the one-per-user key does nothing, and the stock falls by the rows inserted only.
 * `granted` also lists orders whose grant an earlier delivery committed (found by order id and
 * user: after Redis restarted empty with its clock behind, a new entry can reuse an old order id):
 * a redelivered order is acknowledged, never granted twice. `holders` are the batch's users who held
 * a grant before the statement: an order of theirs not granted is a duplicate, not sold out.
 */
const ORDER_GRANT_SQL = `${batchGrantSql({
  asked: `
    SELECT DISTINCT ON (user_id) user_id, order_id, replica, accepted_us, ord
      FROM unnest($2::varchar[], $3::varchar[], $4::varchar[], $5::bigint[])
           WITH ORDINALITY AS o(user_id, order_id, replica, accepted_us, ord)
     ORDER BY user_id, ord`,
  values: {
    strategy: '$6',
    replica: 'p.replica',
    order_id: 'p.order_id',
    accepted_at: 'to_timestamp(p.accepted_us / 1e6)',
  },
  returning: 'order_id',
})}
  SELECT ARRAY(SELECT order_id FROM inserted
               UNION ALL
               SELECT g.order_id FROM grants g
                 JOIN unnest($2::varchar[], $3::varchar[]) AS o(user_id, order_id)
                   ON g.user_id = o.user_id AND g.order_id = o.order_id
                WHERE g.coupon_id = $1) AS granted,
         ARRAY(SELECT g.user_id FROM grants g WHERE g.coupon_id = $1 AND g.user_id = ANY($2::varchar[])) AS holders,
         (SELECT COUNT(*) FROM inserted)::int AS inserted`;

/**
 * Writes a batch of one coupon's accepted orders as grants. `query` runs in a transaction (one
 * commit for the batch): the caller's BEGIN … COMMIT.
 */
export async function orderGrant(
  query: RunQuery,
  couponId: number,
  orders: readonly StreamOrder[],
  strategy: string,
): Promise<OrdersPersisted> {
  const refused = new Map<string, Refusal>();
  if (orders.length === 0) return { granted: new Set(), inserted: 0, refused };
  const [coupon] = await query<{ epoch: string }>(EPOCH_SQL, [couponId], 'order-epoch');
  const current = orders.filter((o) => o.epoch === coupon?.epoch);
  for (const o of orders) if (o.epoch !== coupon?.epoch) refused.set(o.orderId, 'superseded');
  if (current.length === 0) return { granted: new Set(), inserted: 0, refused };
  await query(LOCK_STOCK_SQL, [couponId], 'order-lock-stock');
  const [row] = await query<{ granted: string[]; holders: string[]; inserted: number }>(
    ORDER_GRANT_SQL,
    [
      couponId,
      current.map((o) => o.userId),
      current.map((o) => o.orderId),
      current.map((o) => o.replica),
      current.map((o) => o.acceptedUs),
      strategy,
    ],
    'order-grant',
  );
  const granted = new Set(row.granted);
  // A user whose other order of this batch was granted is a duplicate too.
  const holders = new Set([...row.holders, ...current.filter((o) => granted.has(o.orderId)).map((o) => o.userId)]);
  for (const o of current)
    if (!granted.has(o.orderId)) refused.set(o.orderId, holders.has(o.userId) ? 'duplicate' : 'sold-out');
  return { granted, inserted: row.inserted, refused };
}
