import type { RedisTarget } from './redis/redis-target';

/** After acquiring, wait for this many replicas to have the lock, else treat it as not acquired. */
export interface WaitForReplicas {
  readonly replicas: number;
  readonly timeoutMs: number;
}

export interface LockRuntimeOptions {
  readonly redisUrl: string;
  /** Sentinels or a Redis Cluster instead of the one server at redisUrl. */
  readonly redisTarget?: RedisTarget;
  readonly replicaId: string;
  readonly waitForReplicas?: WaitForReplicas;
  /** Per-command timeout; raised automatically to outlast a WAIT. */
  readonly commandTimeoutMs?: number;
  /**
   * How many times in a row a holder may hand the lock straight to the next waiter of this
   * process before releasing it for the others; 0 turns hand-offs off. Default 256.
   */
  readonly handoffLimit?: number;
  /** How long after its first hand-off a run ends, however short its sections; default `HANDOFF_WINDOW_MS` (60). */
  readonly handoffWindowMs?: number;
  /**
   * How waiters of the Redis strategies wait: `queue` (default) in a fair queue per lock in Redis
   * with direct hand-off; `pubsub`, the earlier path (every release wakes every process's head).
   */
  readonly waitMode?: LockWaitMode;
}

/** How waiters of the Redis strategies wait (see `LockRuntimeOptions.waitMode`). */
export type LockWaitMode = 'queue' | 'pubsub';
