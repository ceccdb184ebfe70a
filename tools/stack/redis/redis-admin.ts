import { Redis } from 'ioredis';

/** One short-lived connection for one admin question (a Sentinel's or a cluster node's). */
export async function askRedis<T>(port: number, ask: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await ask(redis);
  } finally {
    redis.disconnect();
  }
}

/** Polls `probe` until it holds, or throws after `timeoutMs`. */
export async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
