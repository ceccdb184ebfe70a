/** Which Redis the replicas lock with: one server, a primary watched by Sentinels, or a Redis Cluster. */
export type RedisMode = 'single' | 'sentinel' | 'cluster';
export const REDIS_MODES: readonly RedisMode[] = ['single', 'sentinel', 'cluster'];

/** The name the Sentinels monitor the primary under. */
export const SENTINEL_MASTER_NAME = 'oversell';

/** Where clients find the Redis of one topology (stack.json and the replicas' environment). */
export interface RedisEndpoints {
  /** A node to talk to: the server, the primary at start, or a cluster node. */
  readonly redisUrl: string;
  readonly redisSentinelUrls?: string[];
  readonly redisSentinelName?: string;
  readonly redisClusterUrls?: string[];
}

/** `empty`: start without the append-only file, as a Redis that persists nothing would. */
export interface RedisStartOptions {
  readonly empty?: boolean;
}

/**
 * One of the three topologies, run from the system's redis-server. `stopPrimary` is the fault: the
 * server, the current primary (Sentinel promotes the replica) or the master owning `key`'s slot
 * (the cluster promotes its replica); `startAgain` brings back what was stopped: with what its
 * append-only file kept (single, REDIS_APPENDFSYNC), else empty.
 */
export interface RedisTopology {
  start(check: () => void): Promise<void>;
  endpoints(): RedisEndpoints;
  /** What the replicas are told (REDIS_URL, REDIS_SENTINEL_URLS, REDIS_CLUSTER_URLS, …). */
  replicaEnv(): NodeJS.ProcessEnv;
  /** Pid per node, undefined when it is down. */
  pids(): Record<string, number | undefined>;
  /** `signal`: SIGTERM by default (a clean shutdown that flushes the AOF); SIGKILL a crash (single only). */
  stopPrimary(key?: string, signal?: NodeJS.Signals): Promise<{ stopped: string }>;
  startAgain(options?: RedisStartOptions): Promise<void>;
  stop(): Promise<void>;
}
