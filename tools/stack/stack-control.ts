import type { StackConfig } from './config';
import type { RedisStartOptions } from './redis/redis-topology';
import type { SupervisedReplica } from './servers/replica';

/** What the control endpoint may do to a running stack (the supervisor implements it). */
export interface StackControl {
  readonly config: StackConfig;
  /** stack.json plus restarts and which servers run. */
  state(): unknown;
  replica(id: string): SupervisedReplica | undefined;
  /** Single: the server; sentinel: the current primary; cluster: the master of `key`'s slot. */
  stopRedis(key?: string, signal?: NodeJS.Signals): Promise<{ stopped: string }>;
  /** `empty`: without what the stopped server persisted, as a Redis without an append-only file. */
  startRedisAgain(options?: RedisStartOptions): Promise<void>;
  stopPostgres(): Promise<void>;
  startPostgresAgain(): Promise<void>;
  stopRedlock(index: number): Promise<void>;
  startRedlockAgain(index: number): Promise<void>;
}
