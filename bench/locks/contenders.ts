import { Redlock } from '@sesamecare-oss/redlock';
import { createLockStrategies, LockRuntime, LockTimeoutError, noLockEvents, type LockStrategy } from '@app/lock';
import { Redis } from 'ioredis';
import { Mutex, TimeoutError } from 'redis-semaphore';

/** The locks compared: ours first, then the Node peers with their default settings. */
export const contenderNames = ['owner-checked', 'watchdog', 'redis-semaphore', 'redlock'] as const;
export type ContenderName = (typeof contenderNames)[number];
export const ours: readonly ContenderName[] = ['owner-checked', 'watchdog'];

/** Lease and wait for every contender (redis-semaphore's defaults, so its settings stay default). */
export const leaseMs = 10_000;
export const waitMs = 10_000;

/** The lock was not had: the waiter counts a failed acquisition and tries again. */
export class AcquireFailed extends Error {
  override readonly name = 'AcquireFailed';
  readonly code = 'BENCH.ACQUIRE_FAILED';
  constructor(contender: string, options?: { cause?: unknown }) {
    super(`${contender}: lock not acquired`, options);
  }
}

export interface Contender {
  readonly name: ContenderName;
  /** Acquire `resource`, run `critical`, release; AcquireFailed when the lock was not had. */
  withLock(resource: string, critical: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

function ourContender(name: ContenderName, redisUrl: string, processId: string): Contender {
  const runtime = LockRuntime.connect({ redisUrl, replicaId: processId });
  const strategy: LockStrategy | undefined = createLockStrategies(runtime, noLockEvents).find((s) => s.name === name);
  if (!strategy) throw new Error(`@app/lock has no strategy ${name}`);
  return {
    name,
    async withLock(resource, critical) {
      try {
        await strategy.run(resource, { leaseMs, waitMs }, critical);
      } catch (error) {
        throw error instanceof LockTimeoutError ? new AcquireFailed(name, { cause: error }) : error;
      }
    },
    close: () => runtime.close(),
  };
}

function redisSemaphoreContender(redisUrl: string): Contender {
  const redis = new Redis(redisUrl);
  return {
    name: 'redis-semaphore',
    async withLock(resource, critical) {
      const mutex = new Mutex(redis, resource);
      try {
        await mutex.acquire();
      } catch (error) {
        throw error instanceof TimeoutError ? new AcquireFailed('redis-semaphore', { cause: error }) : error;
      }
      try {
        await critical();
      } finally {
        await mutex.release();
      }
    },
    close: async () => {
      await redis.quit();
    },
  };
}

function redlockContender(redisUrl: string): Contender {
  const redis = new Redis(redisUrl);
  const redlock = new Redlock([redis]);
  redlock.on('error', () => undefined); // failed attempts are counted by the waiter, not logged
  return {
    name: 'redlock',
    async withLock(resource, critical) {
      let lock;
      try {
        lock = await redlock.acquire([resource], leaseMs);
      } catch (error) {
        throw new AcquireFailed('redlock', { cause: error });
      }
      try {
        await critical();
      } finally {
        await lock.release();
      }
    },
    close: async () => {
      await redis.quit();
    },
  };
}

export function createContender(name: ContenderName, redisUrl: string, processId: string): Contender {
  switch (name) {
    case 'redis-semaphore':
      return redisSemaphoreContender(redisUrl);
    case 'redlock':
      return redlockContender(redisUrl);
    default:
      return ourContender(name, redisUrl, processId);
  }
}
