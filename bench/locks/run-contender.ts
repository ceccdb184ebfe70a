import { Redis } from 'ioredis';
import { aggregate, type LockBenchResult } from './aggregate';
import { CONTENDERS, type ContenderName } from './contenders';
import { runMeasuringCpu } from './cpu-probes';
import { settleCounterKey } from './critical-section';
import type { WorkerPool } from './worker-pool';

export interface ContenderRun {
  readonly contender: ContenderName;
  readonly redisUrl: string;
  readonly waiters: number;
  readonly seconds: number;
}

/** One contender's round: every worker of the pool, K waiters each, loops on one resource for the window. */
export async function runContender(pool: WorkerPool, run: ContenderRun): Promise<LockBenchResult> {
  const resource = `bench:locks:${run.contender}:${Date.now()}`;
  const counterKey = `${resource}:counter`;
  const configs = Array.from({ length: pool.size }, (_, i) => ({
    contender: run.contender,
    redisUrl: run.redisUrl,
    processIndex: i,
    waiters: run.waiters,
    resource,
    counterKey,
  }));
  const redis = new Redis(run.redisUrl);
  try {
    const { reports, redisMicros } = await runMeasuringCpu(pool, redis, configs, run.seconds);
    const [counter, settleCounter] = (await redis.mget(counterKey, settleCounterKey(counterKey))).map(Number);
    const meta = CONTENDERS[run.contender];
    return aggregate(run.contender, meta, reports, counter, run.seconds * 1000, redisMicros, settleCounter);
  } finally {
    await redis.quit();
  }
}
