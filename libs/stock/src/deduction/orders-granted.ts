import type { RunQuery } from '../database/stock-database';
import type { StreamOrder } from './order-grant';

/** A grant is the order's when both its order id and its user match: an order id alone can be reused. */
const ORDERS_GRANTED_SQL = `
  SELECT g.order_id AS "orderId" FROM grants g
    JOIN unnest($2::varchar[], $3::varchar[]) AS o(order_id, user_id)
      ON g.order_id = o.order_id AND g.user_id = o.user_id
   WHERE g.coupon_id = $1`;

/**
 * redis-stream: which of these orders hold a grant, read in a statement of its own, so it sees
 * every commit made before it started (a batch statement's snapshot may be older than another
 * delivery's commit). An order found here is acknowledged, never given back.
 */
export async function ordersGranted(
  query: RunQuery,
  couponId: number,
  orders: readonly StreamOrder[],
): Promise<Set<string>> {
  if (orders.length === 0) return new Set();
  const rows = await query<{ orderId: string }>(
    ORDERS_GRANTED_SQL,
    [couponId, orders.map((o) => o.orderId), orders.map((o) => o.userId)],
    'orders-granted',
  );
  return new Set(rows.map((r) => r.orderId));
}
