import { Redis } from 'ioredis';
import { aggregate, type LockBenchResult } from './aggregate';
import { ours, type ContenderName } from './contenders';
import type { WorkerPool } from './worker-pool';

export interface ContenderRun {
  readonly contender: ContenderName;
  readonly redisUrl: string;
  readonly waiters: number;
  readonly grants: number;
}

/** One contender: every worker of the pool, K waiters each, shares a fixed number of grants on one resource. */
export async function runContender(pool: WorkerPool, run: ContenderRun): Promise<LockBenchResult> {
  const resource = `bench:locks:${run.contender}:${Date.now()}`;
  const counterKey = `${resource}:counter`;
  const base = Math.floor(run.grants / pool.size);
  const reports = await pool.run(
    Array.from({ length: pool.size }, (_, i) => ({
      contender: run.contender,
      redisUrl: run.redisUrl,
      processIndex: i,
      waiters: run.waiters,
      quota: base + (i < run.grants % pool.size ? 1 : 0),
      resource,
      counterKey,
    })),
  );
  const redis = new Redis(run.redisUrl);
  try {
    return aggregate(run.contender, ours.includes(run.contender), reports, Number((await redis.get(counterKey)) ?? 0));
  } finally {
    await redis.quit();
  }
}
