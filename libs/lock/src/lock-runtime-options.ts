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
   * process before releasing it for the other processes; 0 turns hand-offs off. Default 16.
   */
  readonly handoffLimit?: number;
}

/** Hand-offs in a row within a process before a real release: other processes then wait at most this many sections. */
export const HANDOFF_LIMIT = 16;
