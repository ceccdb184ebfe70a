import type { Redis } from 'ioredis';
import type { ReconcileReport } from '@app/contract';
import { orderKeys } from './order-commands';
import { defineStockCommands, reservationUser, stockKeys } from './redis-stock-commands';

/** The database side of a reconciliation: it is the stock of record. */
export interface StockLedger {
  currentStock(couponId: number): Promise<number>;
  /** Of `userIds`, those who hold a grant of the coupon. */
  grantedUsers(couponId: number, userIds: readonly string[]): Promise<Set<string>>;
}

const asNumber = (value: string | null) => (value === null ? null : Number(value));

/**
 * Compares a coupon's Redis stock with the database and repairs Redis, safely under load: each
 * reservation past its deadline is settled (its grant is in the database) or given back (it is
 * not), once; the counter itself is set to the stock of record only when no reservation is in
 * flight and it did not move meanwhile (otherwise it is reported busy and left alone).
 */
export async function reconcileStock(redis: Redis, couponId: number, ledger: StockLedger): Promise<ReconcileReport> {
  defineStockCommands(redis);
  const keys = stockKeys(couponId);
  const counterBefore = asNumber(await redis.get(keys.counter));
  const [seconds, micros] = await redis.time();
  const nowMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  const entries = await redis.zrange(keys.reservations, 0, -1, 'WITHSCORES');
  const expired: string[] = [];
  let inFlight = 0;
  for (let i = 0; i < entries.length; i += 2) {
    if (Number(entries[i + 1]) <= nowMs) expired.push(entries[i]);
    else inFlight += 1;
  }
  const granted = await ledger.grantedUsers(couponId, expired.map(reservationUser));
  const actions: string[] = [];
  let settled = 0;
  let returned = 0;
  for (const id of expired) {
    if (granted.has(reservationUser(id))) {
      settled += await redis.zrem(keys.reservations, id);
    } else if ((await redis.stockGiveBack(keys.counter, keys.reservations, id)) !== -3) {
      returned += 1;
      actions.push(`gave back the unit of ${id}: reserved, never persisted`);
    }
  }
  if (settled) actions.push(`settled ${settled} reservation(s) whose grants are in the database`);
  const counter = await alignCounter(redis, couponId, ledger);
  const stockOfRecord = await ledger.currentStock(couponId);
  const counterAfter = asNumber(await redis.get(keys.counter));
  if (counter.result === 'repaired') actions.push(`set the counter from ${counter.seen} to ${counter.ofRecord}`);
  return {
    couponId,
    stockOfRecord,
    counterBefore,
    counterAfter,
    reservations: { inFlight, settled, returned },
    counter: counter.result,
    actions,
  };
}

/**
 * The counter set to the database's stock, if nothing moved in Redis between reading both. Units
 * in flight (reservations, or redis-stream orders not yet persisted) make it busy, and so does a
 * reset: the script checks all of it again at the moment it sets the counter.
 */
async function alignCounter(redis: Redis, couponId: number, ledger: StockLedger) {
  const keys = stockKeys(couponId);
  const { orders } = orderKeys(couponId);
  const [[, seenRaw], [, generationRaw], [, pending], [, waiting]] = (await redis
    .multi()
    .get(keys.counter)
    .get(keys.generation)
    .zcard(keys.reservations)
    .xlen(orders)
    .exec()) as [[null, string | null], [null, string | null], [null, number], [null, number]];
  const seen = seenRaw ?? '';
  if (pending > 0 || waiting > 0) return { result: 'busy' as const, seen, ofRecord: undefined };
  const ofRecord = await ledger.currentStock(couponId);
  const outcome = await redis.stockReconcile(
    keys.counter,
    keys.reservations,
    orders,
    keys.generation,
    seen,
    generationRaw ?? '0',
    ofRecord,
  );
  const result = ({ 1: 'repaired', 0: 'in step', [-1]: 'busy', [-2]: 'not loaded' } as const)[outcome];
  return { result, seen, ofRecord };
}
