import type { ApiClient } from '@app/contract';
import type { BenchTarget } from '../target';
import type { Ceilings } from '../types';
import { httpCeiling } from './http-ceiling';
import { HotRowCeiling } from './pg-hot-row';
import { RedisCeiling } from './redis-stock-take';

export interface CeilingSpec {
  readonly requests: number;
  readonly warmup: number;
  readonly connections: number;
  readonly runId: string;
}

/**
 * The three ceilings a grab can pass through, each after a warm-up of its own, with as many
 * operations in flight as the load has connections: the HTTP stack alone, one hot row in
 * PostgreSQL (one commit per grant), and the stock-take script in Redis.
 */
export async function measureCeilings(api: ApiClient, target: BenchTarget, spec: CeilingSpec): Promise<Ceilings> {
  const { requests, warmup, connections, runId } = spec;
  const hotRow = new HotRowCeiling(target.databaseUrl, target.databasePoolTotal);
  const redis = new RedisCeiling(target.redisUrl, target.redisClusterUrls);
  try {
    if (warmup > 0) await httpCeiling(target.nginxUrl, warmup, connections);
    const httpPerSec = await httpCeiling(target.nginxUrl, requests, connections);
    const coupon = await api.createCoupon({ name: `bench ceiling ${runId}`, stock: requests + warmup });
    if (warmup > 0) await hotRow.rate(coupon.id, warmup, connections, `ceiling-${runId}-warm-up`);
    const pgHotRowPerSec = await hotRow.rate(coupon.id, requests, connections, `ceiling-${runId}`);
    // The same coupon's Redis keys: no grab touches them (its stock is taken straight above).
    if (warmup > 0) await redis.rate(coupon.id, warmup, connections);
    const redisPerSec = await redis.rate(coupon.id, requests, connections);
    return {
      httpPerSec,
      pgHotRowPerSec,
      redisPerSec,
      method:
        `Each after a warm-up of ${warmup}: ${requests} operations with ${connections} in flight. ` +
        `http: GET /strategies through nginx with autocannon, the load's own client. pg hot row: db-atomic's ` +
        `statement on one coupon's row from node-postgres with a pool of ${target.databasePoolTotal} (the replicas' ` +
        `pools together), a fresh userId each. redis: the stock-take Lua script from ioredis.`,
    };
  } finally {
    await Promise.all([hotRow.close(), redis.close()]);
  }
}
