import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { LockEventSink } from './lock-events';
import type { WaitForReplicas } from './lock-runtime-options';
import type { RedisTarget } from './redis/redis-target';

export interface LockModuleOptions {
  /** Redis that holds the locks, e.g. redis://127.0.0.1:26379. */
  readonly redisUrl: string;
  /** Sentinels or a Redis Cluster instead of the one server at redisUrl (redlock keeps its own nodes). */
  readonly redisTarget?: RedisTarget;
  /** This process's name, the first half of a reentrant owner id (Redisson's client id). */
  readonly replicaId: string;
  /** Where lock events go (metrics, logs, timelines). */
  readonly events?: LockEventSink;
  /**
   * After acquiring, `WAIT replicas timeoutMs`; fewer acknowledgements release the lock and count
   * as not acquired, so a failover cannot hand the same lock out twice. Off when absent.
   */
  readonly waitForReplicas?: WaitForReplicas;
  /** Independent Redis nodes for the `redlock` strategy; it is offered only when some are given. */
  readonly redlockUrls?: readonly string[];
  /** A Redis command slower than this fails (LockUnavailableError); default 2000. */
  readonly commandTimeoutMs?: number;
  /**
   * Hand-offs in a row to the next waiter of the same process before a real release (every Redis
   * strategy, redlock included); 0 turns them off. Default 16.
   */
  readonly handoffLimit?: number;
}

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: LOCK_MODULE_OPTIONS } =
  new ConfigurableModuleBuilder<LockModuleOptions>().setClassMethodName('forRoot').build();
