import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { HeldLocks } from './held-locks';
import { lockKeys } from './lock-keys';
import { createLockRedis, createWakeRedis, defaultLockRedisSettings } from './redis/redis-clients';
import type { RedisTarget } from './redis/redis-target';
import { Renewer } from './renewal/renewer';
import { DEFAULT_HANDOFF_LIMIT, LocalQueue } from './waiting/local-queue';
import { WakeSubscriber } from './waiting/wake-subscriber';

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
   * process before releasing it for the others; 0 turns hand-offs off. Default 16.
   */
  readonly handoffLimit?: number;
  /**
   * How waiters of the Redis strategies wait: `queue` (default) in a fair queue per lock in Redis
   * with direct hand-off; `pubsub`, the earlier path (every release wakes every process's head).
   */
  readonly waitMode?: LockWaitMode;
}

export type LockWaitMode = 'queue' | 'pubsub';

/**
 * What the Redis strategies of one process share: the command connection, the subscriber
 * connection, the local lines, the one renewer and the registry of held locks.
 */
export class LockRuntime {
  readonly queue: LocalQueue;
  readonly renewer = new Renewer();
  readonly held = new HeldLocks();
  readonly wake: WakeSubscriber;
  /** Names this process's wake-up channels in the lock queues (hex: never a `|`). */
  readonly processTag = randomBytes(8).toString('hex');
  private closed = false;
  private readonly closers: (() => Promise<void>)[] = [];

  constructor(
    readonly redis: Redis,
    wakeRedis: Redis,
    readonly replicaId: string,
    readonly waitForReplicas?: WaitForReplicas,
    handoffLimit = DEFAULT_HANDOFF_LIMIT,
    readonly waitMode: LockWaitMode = 'queue',
  ) {
    this.wake = new WakeSubscriber(wakeRedis);
    this.queue = new LocalQueue(handoffLimit);
  }

  static connect(options: LockRuntimeOptions): LockRuntime {
    const commandTimeoutMs = Math.max(
      options.commandTimeoutMs ?? defaultLockRedisSettings.commandTimeoutMs,
      options.waitForReplicas ? options.waitForReplicas.timeoutMs + 1000 : 0,
    );
    const settings = { ...defaultLockRedisSettings, commandTimeoutMs };
    return new LockRuntime(
      createLockRedis(options.redisTarget ?? options.redisUrl, settings),
      createWakeRedis(options.redisTarget ?? options.redisUrl, settings),
      options.replicaId,
      options.waitForReplicas,
      options.handoffLimit,
      options.waitMode,
    );
  }

  /** Whether `resource`'s lock key exists on this runtime's Redis (what a failover kept, say). */
  async lockExists(resource: string): Promise<boolean> {
    return (await this.redis.exists(lockKeys(resource).lock)) === 1;
  }

  /** Releases every lock this process holds (graceful shutdown); returns how many. */
  async releaseAll(): Promise<number> {
    const holds = this.held.all();
    await Promise.all(holds.map((hold) => hold.release().catch(() => undefined)));
    return holds.length;
  }

  /** Something else to close with the runtime (e.g. the redlock strategy's own connections). */
  closeWith(closer: () => Promise<void>): void {
    this.closers.push(closer);
  }

  /** Stops the renewer first (no renewal after this), then closes every connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.renewer.stop();
    await Promise.all(this.closers.map((close) => close().catch(() => undefined)));
    await this.wake.close();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
