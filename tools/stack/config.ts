import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { REDIS_MODES, type RedisMode } from './redis/redis-topology';

/** Everything the stack needs to know, resolved once from the environment (defaults = the contract). */
export interface StackConfig {
  readonly dir: string;
  readonly ports: {
    readonly nginx: number;
    readonly api: number[];
    readonly postgres: number;
    readonly redis: number;
    readonly redlock: number[];
    readonly control: number;
    /** The lab server (apps/lab), reached through nginx at /lab/. */
    readonly lab: number;
  };
  /** REDIS_MODE: one server, a primary with Sentinels, or a Redis Cluster. */
  readonly redisMode: RedisMode;
  /** The ports of the mode's extra servers (only those of `redisMode` are used). */
  readonly redisPorts: {
    readonly replica: number;
    readonly sentinels: number[];
    readonly cluster: number[];
    readonly clusterBus: number[];
  };
  /** Ten ports from here for servers the lab's walkthrough steps start themselves (the failover pairs). */
  readonly labSparePortBase: number;
  readonly adminToken: string;
  readonly chaos: boolean;
  /**
   * REDIS_APPENDFSYNC: the fsync policy of the single Redis's append-only file, `no`, `everysec`
   * (the default) or `always`; `off` runs without one, so a restart comes back empty
   * (docs/async-orders.md).
   */
  readonly redisAppendFsync: RedisAppendFsync;
  /**
   * PG_FSYNC: `on` (the default) commits durably, as PostgreSQL ships (fsync, synchronous_commit);
   * `off` skips both, for a test suite that rebuilds its database anyway.
   */
  readonly postgresFsync: boolean;
  /** Each replica's PostgreSQL pool (DATABASE_POOL_SIZE). */
  readonly databasePoolSize: number;
  /** The replica's entry script; a stand-in may replace the built API while it does not exist. */
  readonly replicaEntry: string;
  readonly replicaEntryOverridden: boolean;
  readonly migrateEntry: string;
  /** The lab server's entry script; the stack runs without the lab page when it is not built. */
  readonly labEntry: string;
}

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const REPLICA_COUNT = 3;
export const REDLOCK_COUNT = 5;
const DIST = 'dist/apps/api/apps/api/src';
const LAB_DIST = 'dist/apps/lab/apps/lab/src';

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535) throw new Error(`${name}=${raw} is not a port`);
  return value;
}

/** The replicas' own default (apps/api reads DATABASE_POOL_SIZE); the stack passes it explicitly. */
export const DEFAULT_POOL_SIZE = 6;

function poolSize(env: NodeJS.ProcessEnv): number {
  const raw = env.DATABASE_POOL_SIZE;
  if (raw === undefined || raw === '') return DEFAULT_POOL_SIZE;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 200) throw new Error(`DATABASE_POOL_SIZE=${raw} is not 1…200`);
  return value;
}

export const REDIS_APPENDFSYNC = ['off', 'no', 'everysec', 'always'] as const;
export type RedisAppendFsync = (typeof REDIS_APPENDFSYNC)[number];

function redisAppendFsync(env: NodeJS.ProcessEnv): RedisAppendFsync {
  const raw = env.REDIS_APPENDFSYNC || 'everysec';
  if (!(REDIS_APPENDFSYNC as readonly string[]).includes(raw))
    throw new Error(`REDIS_APPENDFSYNC=${raw} is not one of ${REDIS_APPENDFSYNC.join(', ')}`);
  return raw as RedisAppendFsync;
}

function postgresFsync(env: NodeJS.ProcessEnv): boolean {
  const raw = env.PG_FSYNC || 'on';
  if (raw !== 'on' && raw !== 'off') throw new Error(`PG_FSYNC=${raw} is not on or off`);
  return raw === 'on';
}

/** postgres's arguments for its commits: none when durable (as shipped), else neither fsync nor a synchronous commit. */
export function postgresDurabilityArgs(fsync: boolean): string[] {
  return fsync ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off'];
}

/** redis-server's arguments for the append-only file, the policy `off` meaning none. */
export function appendOnlyArgs(policy: RedisAppendFsync): string[] {
  return policy === 'off' ? ['--appendonly', 'no'] : ['--appendonly', 'yes', '--appendfsync', policy];
}

function redisMode(env: NodeJS.ProcessEnv): RedisMode {
  const raw = env.REDIS_MODE || 'single';
  if (!(REDIS_MODES as readonly string[]).includes(raw))
    throw new Error(`REDIS_MODE=${raw} is not one of ${REDIS_MODES.join(', ')}`);
  return raw as RedisMode;
}

/** The ports the configured Redis mode listens on. */
export function activeRedisPorts(config: Pick<StackConfig, 'redisMode' | 'redisPorts' | 'ports'>): number[] {
  const { redisPorts: p } = config;
  if (config.redisMode === 'cluster') return [...p.cluster, ...p.clusterBus];
  if (config.redisMode === 'sentinel') return [config.ports.redis, p.replica, ...p.sentinels];
  return [config.ports.redis];
}

const range = (base: number, count: number) => Array.from({ length: count }, (_, i) => base + i);

export function stackDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(REPO_ROOT, env.STACK_DIR || '.stack');
}

export function resolveConfig(env: NodeJS.ProcessEnv = process.env): StackConfig {
  return {
    dir: stackDir(env),
    ports: {
      nginx: port(env, 'NGINX_PORT', 28080),
      api: range(port(env, 'API_PORT_BASE', 23001), REPLICA_COUNT),
      postgres: port(env, 'PG_PORT', 25432),
      redis: port(env, 'REDIS_PORT', 26379),
      redlock: range(port(env, 'REDLOCK_PORT_BASE', 26381), REDLOCK_COUNT),
      control: port(env, 'CONTROL_PORT', 28099),
      lab: port(env, 'LAB_PORT', 28090),
    },
    redisMode: redisMode(env),
    redisPorts: {
      replica: port(env, 'REDIS_REPLICA_PORT', 26380),
      sentinels: range(port(env, 'REDIS_SENTINEL_PORT_BASE', 26390), 3),
      cluster: range(port(env, 'REDIS_CLUSTER_PORT_BASE', 22001), 6),
      // The bus is set explicitly (not port + 10000), so it stays below the ephemeral range.
      clusterBus: range(port(env, 'REDIS_CLUSTER_PORT_BASE', 22001) + 100, 6),
    },
    labSparePortBase: port(env, 'LAB_SPARE_PORT_BASE', 26800),
    adminToken: env.ADMIN_TOKEN || randomBytes(16).toString('hex'),
    databasePoolSize: poolSize(env),
    redisAppendFsync: redisAppendFsync(env),
    postgresFsync: postgresFsync(env),
    // The local stack is a lab: chaos is on unless the caller says otherwise.
    chaos: env.CHAOS_ENABLED === undefined || env.CHAOS_ENABLED === '' ? true : env.CHAOS_ENABLED === 'true',
    replicaEntry: resolve(REPO_ROOT, env.REPLICA_ENTRY || `${DIST}/main.js`),
    replicaEntryOverridden: Boolean(env.REPLICA_ENTRY),
    migrateEntry: resolve(REPO_ROOT, `${DIST}/migrate.js`),
    labEntry: resolve(REPO_ROOT, `${LAB_DIST}/main.js`),
  };
}
