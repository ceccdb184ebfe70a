import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import type { ApiClient } from '@app/contract';
import { summarizeLatencies } from '@app/stock';
import { isoToMs } from '../metrics/figures';
import { drainOrders, type BenchTarget } from '../target';

// Buyers arrive at a fixed pace whatever the answers (a crowd does not slow down for a slow database);
// meanwhile the bench holds the coupon's stock row: every write to it waits. Times in ms from the first buyer.
const SLOW_DB = { buyers: 300, perSec: 150, stallAtMs: 500, stallMs: 1000 };
export const SLOW_DB_STRATEGIES = ['db-atomic', 'redis-lua', 'redis-stream'] as const;

export type SlowDbRun = Awaited<ReturnType<typeof runOne>>;
export type SlowDbResult = Awaited<ReturnType<typeof measureSlowDb>>;

/** Holds the coupon's stock rows FOR UPDATE from SLOW_DB.stallAtMs for stallMs: when it had them, and when it let go. */
async function stall(db: Client, couponId: number, startedAt: number): Promise<[number, number]> {
  await sleep(Math.max(0, startedAt + SLOW_DB.stallAtMs - Date.now()));
  await db.query('BEGIN');
  await db.query('SELECT idx FROM stock_segments WHERE coupon_id = $1 FOR UPDATE', [couponId]);
  const from = Date.now();
  await sleep(SLOW_DB.stallMs);
  await db.query('COMMIT');
  return [from - startedAt, Date.now() - startedAt];
}

async function runOne(api: ApiClient, target: BenchTarget, db: Client, strategy: string, runId: string) {
  const coupon = await api.createCoupon({ name: `bench slow db ${strategy} ${runId}`, stock: SLOW_DB.buyers });
  const startedAt = Date.now();
  const buying = Array.from({ length: SLOW_DB.buyers }, async (_, i) => {
    await sleep(Math.max(0, startedAt + (i * 1000) / SLOW_DB.perSec - Date.now()));
    return api.grab(coupon.id, `slow-${runId}-${strategy}-${i}`, { strategy });
  });
  const [answers, [stallFromMs, stallToMs]] = await Promise.all([Promise.all(buying), stall(db, coupon.id, startedAt)]);
  if (strategy === 'redis-stream') await drainOrders(target, coupon.id);
  const [audit, grants] = await Promise.all([api.audit(coupon.id), api.grants(coupon.id)]);
  const sentMs = answers.map((a) => a.sentAt - startedAt);
  const waitMs = answers.map((a) => a.answeredAt - a.sentAt);
  const sentOf = new Map(answers.map((a, i) => [a.userId, sentMs[i]]));
  const backlog = grants.filter((g) => (sentOf.get(g.userId) ?? Infinity) <= stallToMs);
  const served = answers.filter((a) => a.status === 200 || a.status === 202).length;
  return {
    strategy,
    sentMs,
    waitMs,
    stallFromMs,
    stallToMs,
    // The wait of the buyers sent while the row was held.
    stalled: summarizeLatencies(waitMs.filter((_, i) => sentMs[i] >= stallFromMs && sentMs[i] <= stallToMs)),
    // From the release to the grant row of the last buyer who arrived before it: the backlog durable.
    caughtUpMs: Math.max(0, ...backlog.map((g) => isoToMs(g.leftAt) - startedAt - stallToMs)),
    // Every buyer served (200, or 202 accepted), each a grant row, none beyond the stock.
    correct: served === SLOW_DB.buyers && audit.oversold === 0 && audit.grants === served && grants.length === served,
  };
}

/** The same arrivals and the same stall for each design, one after the other, each on a fresh coupon. */
export async function measureSlowDb(api: ApiClient, target: BenchTarget, runId: string) {
  const db = new Client({ connectionString: target.databaseUrl, application_name: 'oversell:bench-stall' });
  await db.connect();
  try {
    const runs: SlowDbRun[] = [];
    for (const strategy of SLOW_DB_STRATEGIES) runs.push(await runOne(api, target, db, strategy, runId));
    const { buyers, perSec, stallMs } = SLOW_DB;
    return { buyers, perSec, stallMs, runs };
  } finally {
    await db.end();
  }
}
