import { Pool } from 'pg';
import type { ApiClient } from '@app/contract';
import { defineStockCommands, stockKeys } from '@app/redis-stock';
import { ATOMIC_GRANT_SQL } from '@app/stock';
import { startBareHttp } from './bare-http';
import { closedLoop } from './closed-loop';
import { runRound } from './load-round';
import { connectTargetRedis, type BenchTarget } from './target';
import type { Ceilings } from './types';

export interface CeilingSpec {
  readonly requests: number;
  readonly warmup: number;
  readonly connections: number;
  readonly runId: string;
}

/** GET /strategies through nginx with the load's own client: the HTTP stack with nothing behind it. */
async function httpRate(nginxUrl: string, amount: number, connections: number): Promise<number> {
  const round = await runRound({ url: `${nginxUrl}/strategies`, amount, connections });
  if (round.statuses.granted !== amount) {
    throw new Error(`GET /strategies failed under load: ${amount - round.statuses.granted} of ${amount} not 200`);
  }
  return round.durationMs > 0 ? (amount * 1000) / round.durationMs : 0;
}

/**
 * The same bytes as GET /strategies from bare node:http servers (as many as the replicas) behind
 * an nginx of the stack's configuration, with the same client: the HTTP ceiling without a framework.
 */
async function bareHttpRate(target: BenchTarget, amount: number, warmup: number, connections: number) {
  const body = await (await fetch(`${target.replicaUrls[0]}/strategies`)).text();
  const bare = await startBareHttp(body, target.replicaUrls.length);
  try {
    // Fresh processes, unlike replicas that have answered for a while: warmed as long as they are measured.
    await httpRate(bare.url, Math.max(warmup, amount), connections);
    return await httpRate(bare.url, amount, connections);
  } finally {
    await bare.stop();
  }
}

/**
 * The three ceilings a grab can pass through, each after a warm-up of its own, with as many
 * operations in flight as the load has connections: the HTTP stack alone; one hot row in
 * PostgreSQL (db-atomic's statement under the replicas' prepared name, one commit per grant, from
 * one pool the size of the replicas' together); the stock-take script in Redis. Beside the HTTP
 * stack, the same answer without the framework.
 */
export async function measureCeilings(api: ApiClient, target: BenchTarget, spec: CeilingSpec): Promise<Ceilings> {
  const { requests, warmup, connections, runId } = spec;
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
      if ((await redis.stockTake(keys.counter, keys.reservations, `ceiling|${i}`, 30_000)) < 0) {
        throw new Error(`${keys.counter} ran dry`);
      }
    });
  try {
    if (warmup > 0) await httpRate(target.nginxUrl, warmup, connections);
    const httpPerSec = await httpRate(target.nginxUrl, requests, connections);
    const bareHttpPerSec = await bareHttpRate(target, requests, warmup, connections);
    if (warmup > 0) await hotRow(warmup, 'warm-up');
    const pgHotRowPerSec = await hotRow(requests, 'measured');
    await redis.stockLoad(keys.counter, requests + warmup);
    if (warmup > 0) await stockTake(warmup);
    const redisPerSec = await stockTake(requests);
    return {
      httpPerSec,
      bareHttpPerSec,
      pgHotRowPerSec,
      redisPerSec,
      method:
        `Each after a warm-up of ${warmup}: ${requests} operations with ${connections} in flight. ` +
        `http: GET /strategies through nginx with autocannon, the load's own client; bare http: the same bytes ` +
        `from ${target.replicaUrls.length} bare node:http servers behind an nginx of the same configuration. pg hot row: db-atomic's ` +
        `statement on one coupon's row from node-postgres with a pool of ${target.databasePoolTotal} (the replicas' ` +
        `pools together), a fresh userId each. redis: the stock-take Lua script from ioredis.`,
    };
  } finally {
    await redis.del(keys.counter, keys.reservations).catch(() => undefined);
    await Promise.all([pool.end(), redis.quit()]);
  }
}
