import { randomUUID } from 'node:crypto';
import type { RunQuery, StockDatabase } from '../database/stock-database';
import { setTimeout as sleep } from 'node:timers/promises';
import { ACK_TIMEOUT_MS, LISTENER_NAME, RESET_CHANNEL, TRUST_MS, type ResetNotice } from './reset-channel';
import type { StockListener } from './stock-listener';

/**
 * Runs a reset's transaction so that, once it returns, no process answers "sold out" from memory
 * for that coupon (see reset-channel.ts). `body` does the reset's own writes.
 */
export async function broadcastReset<T>(
  db: StockDatabase,
  listener: StockListener,
  couponId: number,
  body: (query: RunQuery) => Promise<T>,
): Promise<T> {
  const notice: ResetNotice = { couponId, resetId: randomUUID() };
  const acks = listener.expectAcks(notice.resetId);
  try {
    const { result, listeners } = await db.transaction(async (query) => {
      await query('SELECT pg_advisory_xact_lock(hashtext($1))', [RESET_CHANNEL]);
      const result = await body(query);
      await query('SELECT pg_notify($1, $2)', [RESET_CHANNEL, JSON.stringify(notice)]);
      const [{ pids }] = await query<{ pids: number[] }>(
        `SELECT COALESCE(array_agg(pid), ARRAY[]::int[]) AS pids FROM pg_stat_activity WHERE application_name = $1`,
        [LISTENER_NAME],
      );
      return { result, listeners: pids };
    });
    const missing = await acks.wait(listeners, ACK_TIMEOUT_MS);
    if (missing.length > 0) {
      // A session that stays silent is cut off: its process then forgets every memo. One that is
      // half-open or frozen may never learn it, but stops trusting its memo within TRUST_MS.
      await db.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [missing]);
      await sleep(TRUST_MS);
    }
    return result;
  } finally {
    acks.cancel();
  }
}
