import type { Redis } from 'ioredis';

/** PUBSUB NUMSUB: how many connections (one per waiting process) listen on a wake-up channel. */
export async function countListeners(redis: Redis, channel: string): Promise<number> {
  const [, count] = (await redis.pubsub('NUMSUB', channel)) as [string, number | string];
  return Number(count);
}
