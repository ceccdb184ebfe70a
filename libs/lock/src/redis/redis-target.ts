import { Cluster, Redis, type RedisOptions } from 'ioredis';

/** Where Redis is: one server, a primary found through Sentinels, or a Redis Cluster. */
export type RedisTarget =
  | { readonly kind: 'single'; readonly url: string }
  | { readonly kind: 'sentinel'; readonly sentinelUrls: readonly string[]; readonly name: string }
  | { readonly kind: 'cluster'; readonly nodeUrls: readonly string[] };

const list = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);

/**
 * The target from its settings, as comma-separated URL lists: cluster nodes win over Sentinels,
 * which win over the one server's URL. The apps pass their configuration's values.
 */
export function redisTargetOf(settings: {
  url: string;
  clusterUrls?: string;
  sentinelUrls?: string;
  sentinelName?: string;
}): RedisTarget {
  const nodeUrls = list(settings.clusterUrls);
  if (nodeUrls.length) return { kind: 'cluster', nodeUrls };
  const sentinelUrls = list(settings.sentinelUrls);
  if (!sentinelUrls.length) return { kind: 'single', url: settings.url };
  if (!settings.sentinelName) throw new Error('a Sentinel master name must be given with the Sentinels');
  return { kind: 'sentinel', sentinelUrls, name: settings.sentinelName };
}

/** What a client needs beyond the target; the retry strategy applies to every topology. */
export interface RedisClientOptions extends Omit<RedisOptions, 'retryStrategy'> {
  readonly retryStrategy: (attempt: number) => number;
}

const hostPort = (url: string) => {
  const { hostname, port } = new URL(url);
  return { host: hostname, port: Number(port || 6379) };
};

/**
 * One client for the target. A Cluster speaks the same commands, routed by each command's key
 * slot, so it is returned under the `Redis` type and every verb keeps one code path; the few
 * places where a cluster differs (WAIT, PUBSUB SHARDNUMSUB, SCAN) check `asCluster`.
 */
export function connectRedis(
  target: RedisTarget | string,
  options: RedisClientOptions,
  /**
   * On a cluster: one subscriber per master for shard channels (SSUBSCRIBE goes to the slot's
   * node), and how often to ask for the slots when no MOVED comes to say they moved.
   */
  clusterOptions: { readonly shardedSubscribers?: boolean; readonly slotsRefreshIntervalMs?: number } = {},
): Redis {
  if (typeof target === 'string') return new Redis(target, options);
  if (target.kind === 'single') return new Redis(target.url, options);
  if (target.kind === 'sentinel') {
    // Sentinels answer where the primary is; after a failover ioredis asks them again.
    return new Redis({
      ...options,
      sentinels: target.sentinelUrls.map(hostPort),
      name: target.name,
      sentinelRetryStrategy: options.retryStrategy,
    });
  }
  const { retryStrategy, enableOfflineQueue, readOnly: _readOnly, ...redisOptions } = options;
  const cluster = new Cluster(target.nodeUrls.map(hostPort), {
    redisOptions,
    enableOfflineQueue: enableOfflineQueue ?? true,
    clusterRetryStrategy: retryStrategy,
    // A master that died: retry while its replica is promoted (node timeout 2 s), then fail.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    scaleReads: 'master',
    shardedSubscribers: clusterOptions.shardedSubscribers ?? false,
    ...(clusterOptions.slotsRefreshIntervalMs && { slotsRefreshInterval: clusterOptions.slotsRefreshIntervalMs }),
  });
  return cluster as unknown as Redis;
}

/** The Cluster behind `redis` when it is one (connectRedis returns it under the `Redis` type). */
export function asCluster(redis: Redis | Cluster): Cluster | undefined {
  return redis.isCluster ? (redis as Cluster) : undefined;
}

/** The cluster's master connection that serves `key`'s slot (asked with CLUSTER KEYSLOT). */
export async function masterFor(cluster: Cluster, key: string): Promise<Redis> {
  const slot = Number(await cluster.cluster('KEYSLOT', key));
  const nodeKey = cluster.slots[slot]?.[0];
  const master = cluster.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === nodeKey);
  if (!master) throw new Error(`no master known for slot ${slot}`);
  return master;
}
