import type { Redis } from 'ioredis';
import { defineLockCommands } from '../scripts/lua-commands';
import { asCluster, connectRedis, type RedisClientOptions, type RedisTarget } from './redis-target';

export interface LockRedisSettings {
  /** A command that takes longer fails (Redis hung or unreachable) instead of waiting forever. */
  readonly commandTimeoutMs: number;
  readonly connectTimeoutMs: number;
}

export const defaultLockRedisSettings: LockRedisSettings = Object.freeze({
  commandTimeoutMs: 2000,
  connectTimeoutMs: 1000,
});

// Reconnect forever, quickly at first, never slower than once a second.
const retryStrategy = (attempt: number): number => Math.min(50 * attempt, 1000);

function baseOptions(settings: LockRedisSettings): RedisClientOptions {
  return {
    connectTimeout: settings.connectTimeoutMs,
    maxRetriesPerRequest: 1,
    retryStrategy,
    connectionName: 'oversell-lock',
  };
}

/**
 * The command connection. Commands sent before the first connect queue briefly; once it is
 * ready the offline queue is switched off, so while Redis is down every command fails at once
 * (the app answers 503) rather than piling up; ioredis keeps reconnecting in the background.
 */
export function createLockRedis(
  target: RedisTarget | string,
  settings: LockRedisSettings = defaultLockRedisSettings,
): Redis {
  const redis = connectRedis(target, { ...baseOptions(settings), commandTimeout: settings.commandTimeoutMs });
  redis.once('ready', () => {
    redis.options.enableOfflineQueue = false;
  });
  redis.on('error', () => undefined); // surfaced per command; without a listener ioredis logs each one
  return defineLockCommands(redis);
}

/**
 * What a connection that only subscribes needs: no ready check. Its INFO can go out behind a
 * SSUBSCRIBE sent while connecting, which Redis refuses in subscriber mode; ioredis then
 * reconnects without that channel, and its wake-ups are lost for good (ioredis #2037).
 */
export const subscriberOptions = Object.freeze({ enableReadyCheck: false });

/**
 * The subscriber connection for wake-ups (shard channels): in subscriber mode it can do nothing
 * else. On a cluster, ioredis keeps one per master and moves the channels when a slot moves.
 */
export function createWakeRedis(
  target: RedisTarget | string,
  settings: LockRedisSettings = defaultLockRedisSettings,
): Redis {
  const redis = connectRedis(
    target,
    { ...baseOptions(settings), ...subscriberOptions, connectionName: 'oversell-lock-wake' },
    // Its own errors never tell it of a failover (see followTopology): it also asks every second.
    { shardedSubscribers: true, slotsRefreshIntervalMs: 1000 },
  );
  redis.on('error', () => undefined);
  return redis;
}

/**
 * On a cluster, the wake connection sends nothing but SSUBSCRIBE, so it never meets the MOVED
 * that tells a client of a failover: its subscriptions would stay on a demoted master and every
 * release's message to our waiters would be lost (redisson #5761). Each slots refresh of the
 * command connection (whose heartbeats do meet it) is passed on at once, and ioredis moves the
 * channels; a node asked too early may still answer the old slots, which the wake connection's
 * own refresh every second corrects.
 */
export function followTopology(commands: Redis, wakes: Redis): void {
  const wakeCluster = asCluster(wakes);
  asCluster(commands)?.on('refresh', () => wakeCluster?.refreshSlotsCache());
}
