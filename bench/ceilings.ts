import { Pool } from 'pg';
import type { ApiClient } from '@app/contract';
import { defineStockCommands, stockKeys } from '@app/redis-stock';
import { ATOMIC_GRANT_SQL } from '@app/stock';
import { closedLoop } from './closed-loop';
import { runRound } from './load-round';
import { connectTargetRedis, type BenchTarget } from './target';
import type { BenchSettings } from './types';

/**
 * The three ceilings a grab can pass through, each after a warm-up, with as many in flight as the load: the HTTP stack
 * alone (GET /strategies through nginx, with the load's own client); one hot row in PostgreSQL (db-atomic's statement,
 * one commit per grant, from a pool the size of the replicas' together); the stock-take script in Redis.
 */
export async function measureCeilings(api: ApiClient, target: BenchTarget, settings: BenchSettings, runId: string) {
  const { requests, warmupRequests: warmup, connections } = settings;
  const pool = new Pool({ connectionString: target.databaseUrl, max: target.databasePoolTotal });
  pool.on('error', () => undefined);
  const redis = connectTargetRedis(target);
  defineStockCommands(redis);
  const coupon = await api.createCoupon({ name: `bench ceiling ${runId}`, stock: requests + warmup });
  // The same coupon's Redis keys: no grab touches them (its stock is taken straight in PostgreSQL).
  const keys = stockKeys(coupon.id);
  const http = async (amount: number) => {
    const round = await runRound({ url: `${target.nginxUrl}/strategies`, amount, connections });
    const failed = amount - round.statuses.granted;
    if (failed > 0) throw new Error(`GET /strategies failed under load: ${failed} of ${amount} not 200`);
    return round.durationMs > 0 ? (amount * 1000) / round.durationMs : 0;
  };
  const hotRow = (amount: number, phase: string) =>
    closedLoop(amount, connections, async (i) => {
      const { rowCount } = await pool.query({
        name: 'atomic-grant',
        text: ATOMIC_GRANT_SQL,
        values: [coupon.id, `ceiling-${runId}-${phase}-${i}`, 'db-atomic', 'bench-ceiling', null],
      });
      if (rowCount !== 1) throw new Error(`the hot-row statement granted ${rowCount} rows; the coupon ran dry`);
    });
  const stockTake = (amount: number) =>
    closedLoop(amount, connections, async (i) => {
      const left = await redis.stockTake(keys.counter, keys.reservations, `ceiling|${i}`, 30_000);
      if (left < 0) throw new Error(`${keys.counter} ran dry`);
    });
  const afterWarmUp = async (rate: (amount: number, phase: string) => Promise<number>) => {
    if (warmup > 0) await rate(warmup, 'warm-up');
    return rate(requests, 'measured');
  };
  try {
    await redis.stockLoad(keys.counter, requests + warmup);
    return {
      httpPerSec: await afterWarmUp(http),
      pgHotRowPerSec: await afterWarmUp(hotRow),
      redisPerSec: await afterWarmUp(stockTake),
    };
  } finally {
    await redis.del(keys.counter, keys.reservations).catch(() => undefined);
    await Promise.all([pool.end(), redis.quit()]);
  }
}
