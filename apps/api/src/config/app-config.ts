/** Everything the service reads from its environment, parsed and checked once at start. */
export interface AppConfig {
  readonly port: number;
  readonly replicaId: string;
  readonly databaseUrl: string;
  readonly databasePoolSize: number;
  readonly redisUrl: string;
  readonly redlockUrls: string[];
  readonly adminToken: string;
  readonly chaosEnabled: boolean;
  readonly leaseMs: number;
  readonly waitMs: number;
  /** Hand-offs in a row to the next waiter of the same replica before a real release; 0 = off. */
  readonly handoffLimit: number;
  /** LOCK_WAIT_MODE: `queue` (a fair queue per lock in Redis, the default) or `pubsub` (the earlier path). */
  readonly lockWaitMode: 'queue' | 'pubsub';
  /** After acquiring, WAIT for this many Redis replicas (0 = off) within waitReplicasTimeoutMs. */
  readonly waitReplicas: number;
  readonly waitReplicasTimeoutMs: number;
  readonly logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
}
export const AppConfig = Symbol('AppConfig');

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function bool(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? 'false').toLowerCase();
  if (!['true', 'false', '1', '0', ''].includes(raw)) throw new Error(`${name} must be true or false, got "${raw}"`);
  return raw === 'true' || raw === '1';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const adminToken = env.ADMIN_TOKEN ?? '';
  if (adminToken.length < 8) throw new Error('ADMIN_TOKEN must be set (8 characters or more)');
  const replicaId = env.REPLICA_ID ?? 'api-1';
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(replicaId)) throw new Error(`REPLICA_ID "${replicaId}" is not a plain name`);
  const logLevel = (env.LOG_LEVEL ?? 'log') as AppConfig['logLevel'];
  if (!['error', 'warn', 'log', 'debug', 'verbose'].includes(logLevel))
    throw new Error(`LOG_LEVEL "${logLevel}" is unknown`);
  const lockWaitMode = (env.LOCK_WAIT_MODE || 'queue') as AppConfig['lockWaitMode'];
  if (!['queue', 'pubsub'].includes(lockWaitMode))
    throw new Error(`LOCK_WAIT_MODE must be queue or pubsub, got "${lockWaitMode}"`);
  return {
    port: int(env, 'PORT', 3000, 1, 65535),
    replicaId,
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:25432/oversell',
    // Few connections: the hot stock row serialises writers anyway, and fewer of them queued on its
    // lock waste less (`DATABASE_POOL_SIZE=20 npm run bench` shows every database strategy slower).
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 6, 1, 200),
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:26379',
    redlockUrls: (env.REDLOCK_URLS ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean),
    adminToken,
    chaosEnabled: bool(env, 'CHAOS_ENABLED'),
    leaseMs: int(env, 'LOCK_LEASE_MS', 10_000, 100, 600_000),
    waitMs: int(env, 'LOCK_WAIT_MS', 10_000, 0, 60_000),
    handoffLimit: int(env, 'LOCK_HANDOFF_LIMIT', 16, 0, 10_000),
    lockWaitMode,
    waitReplicas: int(env, 'LOCK_WAIT_REPLICAS', 0, 0, 16),
    waitReplicasTimeoutMs: int(env, 'LOCK_WAIT_REPLICAS_TIMEOUT_MS', 100, 0, 10_000),
    logLevel,
  };
}
