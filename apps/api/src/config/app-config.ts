import { envAdminToken, envBool, envInt } from '@app/apps-common';
import { DEFAULT_PERSISTER } from '@app/redis-stock';
import { STATEMENT_TIMEOUT_MS, statementLifeMs } from '@app/stock';
import { redisTargetOf, type RedisTarget } from '@app/lock';

/** Everything the service reads from its environment, parsed and checked once at start. */
export interface AppConfig {
  readonly port: number;
  readonly replicaId: string;
  readonly databaseUrl: string;
  readonly databasePoolSize: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS: PostgreSQL cancels a statement after this long. */
  readonly databaseStatementTimeoutMs: number;
  readonly redisUrl: string;
  /** The Redis of the locks and the stock: REDIS_URL's server, or Sentinels, or a Redis Cluster. */
  readonly redis: RedisTarget;
  readonly redlockUrls: string[];
  readonly adminToken: string;
  readonly chaosEnabled: boolean;
  readonly leaseMs: number;
  readonly waitMs: number;
  /** Hand-offs in a row to the next waiter of the same replica before a real release; 0 = off; unset: the library's default. */
  readonly handoffLimit?: number;
  /** After acquiring, WAIT for this many Redis replicas (0 = off) within waitReplicasTimeoutMs. */
  readonly waitReplicas: number;
  readonly waitReplicasTimeoutMs: number;
  /** HOLD_SWEEP_MS: how often this replica expires due holds (every replica sweeps). */
  readonly holdSweepMs: number;
  readonly logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  /**
   * ORDER_RECLAIM_IDLE_MS: an accepted order (redis-stream) pending this long is claimed by another
   * persister; longer than a statement can live (connection wait + statement timeout).
   */
  readonly orderReclaimIdleMs: number;
  /** ORDER_MAX_FAILURES: failures of an order's own statement before it goes to the dead letters. */
  readonly orderMaxFailures: number;
  /** STEP_HOLD_MS: how long a stepped grab (the lab's scheduler) waits at a step before it is let go. */
  readonly stepHoldMs: number;
}
export const AppConfig = Symbol('AppConfig');

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:25432/oversell';

/** What the migration entry point needs: the database alone (it runs without the replicas' settings). */
export function loadMigrationConfig(env: NodeJS.ProcessEnv = process.env): { readonly databaseUrl: string } {
  return { databaseUrl: env.DATABASE_URL ?? DEFAULT_DATABASE_URL };
}

const list = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);

/** A cluster's nodes (REDIS_CLUSTER_URLS) win over Sentinels (REDIS_SENTINEL_URLS), which win over REDIS_URL. */
function redisTarget(env: NodeJS.ProcessEnv, url: string): RedisTarget {
  if (env.REDIS_SENTINEL_URLS && !env.REDIS_SENTINEL_NAME && !env.REDIS_CLUSTER_URLS)
    throw new Error('REDIS_SENTINEL_NAME must be set with REDIS_SENTINEL_URLS');
  return redisTargetOf({
    url,
    clusterUrls: env.REDIS_CLUSTER_URLS,
    sentinelUrls: env.REDIS_SENTINEL_URLS,
    sentinelName: env.REDIS_SENTINEL_NAME,
  });
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const adminToken = envAdminToken(env);
  const replicaId = env.REPLICA_ID ?? 'api-1';
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(replicaId)) throw new Error(`REPLICA_ID "${replicaId}" is not a plain name`);
  const logLevel = (env.LOG_LEVEL ?? 'log') as AppConfig['logLevel'];
  if (!['error', 'warn', 'log', 'debug', 'verbose'].includes(logLevel))
    throw new Error(`LOG_LEVEL "${logLevel}" is unknown`);
  const redisUrl = env.REDIS_URL ?? 'redis://127.0.0.1:26379';
  const databaseStatementTimeoutMs = envInt(env, 'DATABASE_STATEMENT_TIMEOUT_MS', STATEMENT_TIMEOUT_MS, 100, 600_000);
  const orderReclaimIdleMs = envInt(env, 'ORDER_RECLAIM_IDLE_MS', DEFAULT_PERSISTER.reclaimIdleMs, 100, 600_000);
  // A reclaimed order must have no statement of its last delivery still able to commit.
  if (orderReclaimIdleMs <= statementLifeMs(databaseStatementTimeoutMs))
    throw new Error(
      `ORDER_RECLAIM_IDLE_MS (${orderReclaimIdleMs}) must exceed the connection wait plus DATABASE_STATEMENT_TIMEOUT_MS ` +
        `(${statementLifeMs(databaseStatementTimeoutMs)} ms)`,
    );
  return {
    port: envInt(env, 'PORT', 3000, 1, 65535),
    replicaId,
    databaseUrl: loadMigrationConfig(env).databaseUrl,
    // Few connections: the hot stock row serialises writers anyway, and fewer of them queued on its
    // lock waste less (`DATABASE_POOL_SIZE=20 npm run bench` shows every database strategy slower).
    databasePoolSize: envInt(env, 'DATABASE_POOL_SIZE', 6, 1, 200),
    databaseStatementTimeoutMs,
    redisUrl,
    redis: redisTarget(env, redisUrl),
    redlockUrls: list(env.REDLOCK_URLS),
    adminToken,
    chaosEnabled: envBool(env, 'CHAOS_ENABLED'),
    leaseMs: envInt(env, 'LOCK_LEASE_MS', 10_000, 100, 600_000),
    waitMs: envInt(env, 'LOCK_WAIT_MS', 10_000, 0, 60_000),
    ...(env.LOCK_HANDOFF_LIMIT && { handoffLimit: envInt(env, 'LOCK_HANDOFF_LIMIT', 0, 0, 10_000) }),
    waitReplicas: envInt(env, 'LOCK_WAIT_REPLICAS', 0, 0, 16),
    waitReplicasTimeoutMs: envInt(env, 'LOCK_WAIT_REPLICAS_TIMEOUT_MS', 100, 0, 10_000),
    // An expired unit is back within this period plus one statement; an idle sweep is one probe of
    // a partial index, so three replicas at 5 sweeps/s cost PostgreSQL next to nothing.
    holdSweepMs: envInt(env, 'HOLD_SWEEP_MS', 200, 20, 60_000),
    logLevel,
    orderReclaimIdleMs,
    orderMaxFailures: envInt(env, 'ORDER_MAX_FAILURES', DEFAULT_PERSISTER.maxFailures, 1, 1000),
    stepHoldMs: envInt(env, 'STEP_HOLD_MS', 30_000, 100, 30_000),
  };
}
