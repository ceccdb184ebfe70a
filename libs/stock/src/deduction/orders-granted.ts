import type { RunQuery } from '../database/stock-database';

const ORDERS_GRANTED_SQL = `
  SELECT order_id AS "orderId" FROM grants WHERE coupon_id = $1 AND order_id = ANY($2::varchar[])`;

/**
 * redis-stream: which of these orders hold a grant, read in a statement of its own, so it sees
 * every commit made before it started (a batch statement's snapshot may be older than another
 * delivery's commit). An order found here is acknowledged, never given back.
 */
export async function ordersGranted(
  query: RunQuery,
  couponId: number,
  orderIds: readonly string[],
): Promise<Set<string>> {
  if (orderIds.length === 0) return new Set();
  const rows = await query<{ orderId: string }>(ORDERS_GRANTED_SQL, [couponId, orderIds], 'orders-granted');
  return new Set(rows.map((r) => r.orderId));
}
