import { Pool } from 'pg';
import type { ApiClient } from '@app/contract';
import { defineStockCommands, stockKeys } from '@app/redis-stock';
import { ATOMIC_GRANT_SQL } from '@app/stock';
import { withBareHttp } from './bare-http';
import { closedLoop } from './closed-loop';
import { runRound } from './load-round';
import { connectTargetRedis, type BenchTarget } from './target';
import type { Ceilings } from './types';

/** GET /strategies through nginx with the load's own client: the HTTP stack with nothing behind it. */
async function httpRate(nginxUrl: string, amount: number, connections: number): Promise<number> {
  const round = await runRound({ url: `${nginxUrl}/strategies`, amount, connections });
  if (round.statuses.granted !== amount) {
    throw new Error(`GET /strategies failed under load: ${amount - round.statuses.granted} of ${amount} not 200`);
  }
  return round.durationMs > 0 ? (amount * 1000) / round.durationMs : 0;
}

/**
 * The three ceilings a grab can pass through, each after a warm-up of its own, with as many
 * operations in flight as the load has connections: the HTTP stack alone; one hot row in
 * PostgreSQL (db-atomic's statement under the replicas' prepared name, one commit per grant, from
 * one pool the size of the replicas' together); the stock-take script in Redis. Beside the HTTP
 * stack, the same answer without the framework.
 */
export async function measureCeilings(
  api: ApiClient,
  target: BenchTarget,
  { requests, warmup, connections, runId }: { requests: number; warmup: number; connections: number; runId: string },
): Promise<Ceilings> {
  const pool = new Pool({
    connectionString: target.databaseUrl,
    max: target.databasePoolTotal,
    application_name: 'oversell:bench',
  });
  pool.on('error', () => undefined);
  const redis = connectTargetRedis(target);
  defineStockCommands(redis);
  const coupon = await api.createCoupon({ name: `bench ceiling ${runId}`, stock: requests + warmup });
  // The same coupon's Redis keys: no grab touches them (its stock is taken straight in PostgreSQL).
  const keys = stockKeys(coupon.id);
  const warmed = async (rate: (amount: number, phase: string) => Promise<number>) => {
    if (warmup > 0) await rate(warmup, 'warm-up');
    return rate(requests, 'measured');
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
  try {
    const httpPerSec = await warmed((amount) => httpRate(target.nginxUrl, amount, connections));
    // The same bytes as GET /strategies from fresh processes, unlike replicas that have answered for a while:
    // warmed as long as they are measured.
    const body = await (await fetch(`${target.replicaUrls[0]}/strategies`)).text();
    const bareHttpPerSec = await withBareHttp(body, target.replicaUrls.length, async (url) => {
      await httpRate(url, Math.max(warmup, requests), connections);
      return httpRate(url, requests, connections);
    });
    const pgHotRowPerSec = await warmed(hotRow);
    await redis.stockLoad(keys.counter, requests + warmup);
    const redisPerSec = await warmed(stockTake);
    const method =
      `Each after a warm-up of ${warmup}: ${requests} operations with ${connections} in flight. ` +
      `http: GET /strategies through nginx with autocannon, the load's own client; bare http: the same bytes ` +
      `from ${target.replicaUrls.length} bare node:http servers behind an nginx of the same configuration. pg hot row: db-atomic's ` +
      `statement on one coupon's row from node-postgres with a pool of ${target.databasePoolTotal} (the replicas' ` +
      `pools together), a fresh userId each. redis: the stock-take Lua script from ioredis.`;
    return { httpPerSec, bareHttpPerSec, pgHotRowPerSec, redisPerSec, method };
  } finally {
    await redis.del(keys.counter, keys.reservations).catch(() => undefined);
    await Promise.all([pool.end(), redis.quit()]);
  }
}
