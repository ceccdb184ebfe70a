import { Redlock } from '@sesamecare-oss/redlock';
import { createLockStrategies, LockRuntime, LockTimeoutError, noLockEvents, type LockStrategy } from '@app/lock';
import { Redis } from 'ioredis';
import { Mutex, TimeoutError } from 'redis-semaphore';

/**
 * The locks compared. Ours as shipped (the fair Redis queue), ours with local hand-off off (the
 * ablation that shows where the lead comes from), and `fenced`, ours plus a fencing token drawn at every change of hands (what fencing costs); the
 * Node peers at their defaults, and redlock again with a retry budget as long as our 10 s wait
 * (at its defaults it gives up after 2–3 s).
 */
export const CONTENDERS = {
  'owner-checked': { ours: true, atDefaults: true },
  'owner-checked:no-local-handoff': { ours: true, atDefaults: false },
  watchdog: { ours: true, atDefaults: true },
  fenced: { ours: true, atDefaults: false },
  'redis-semaphore': { ours: false, atDefaults: true },
  redlock: { ours: false, atDefaults: true },
  'redlock:retry-10s': { ours: false, atDefaults: false },
} as const;

export type ContenderName = keyof typeof CONTENDERS;
export const contenderNames = Object.keys(CONTENDERS) as ContenderName[];

/** Sections ours runs in a row in one process at most: the take in Redis, then its default 16 hand-offs. */
export const SECTIONS_PER_TURN = 17;

/** Lease and wait for every contender (redis-semaphore's defaults, so its settings stay default). */
export const leaseMs = 10_000;
export const waitMs = 10_000;
/** redlock's default retry delay and jitter, with as many retries as fill our wait. */
const REDLOCK_RETRY = { retryDelay: 200, retryJitter: 100, retryCount: Math.ceil(waitMs / 250) };

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
  const [kind, variant] = name.split(':');
  const runtime = LockRuntime.connect({
    redisUrl,
    replicaId: processId,
    ...(variant === 'no-local-handoff' ? { handoffLimit: 0 } : {}),
  });
  const strategy: LockStrategy | undefined = createLockStrategies(runtime, noLockEvents).find((s) => s.name === kind);
  if (!strategy) throw new Error(`@app/lock has no strategy ${kind}`);
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

/**
 * A peer's withLock: `acquire`, telling a lock not had (`notHad`) as AcquireFailed, then `critical`,
 * and `release` whether or not it threw.
 */
async function peerWithLock<L>(
  name: ContenderName,
  lock: { acquire(): Promise<L>; notHad(error: unknown): boolean; release(held: L): Promise<unknown> },
  critical: () => Promise<void>,
): Promise<void> {
  let held: L;
  try {
    held = await lock.acquire();
  } catch (error) {
    throw lock.notHad(error) ? new AcquireFailed(name, { cause: error }) : error;
  }
  try {
    await critical();
  } finally {
    await lock.release(held);
  }
}

function redisSemaphoreContender(redisUrl: string): Contender {
  const redis = new Redis(redisUrl);
  return {
    name: 'redis-semaphore',
    withLock(resource, critical) {
      const mutex = new Mutex(redis, resource);
      return peerWithLock(
        'redis-semaphore',
        {
          acquire: () => mutex.acquire(),
          notHad: (error) => error instanceof TimeoutError,
          release: () => mutex.release(),
        },
        critical,
      );
    },
    close: async () => {
      await redis.quit();
    },
  };
}

function redlockContender(name: 'redlock' | 'redlock:retry-10s', redisUrl: string): Contender {
  const redis = new Redis(redisUrl);
  const redlock = new Redlock([redis], name === 'redlock' ? {} : REDLOCK_RETRY);
  redlock.on('error', () => undefined); // failed attempts are counted by the waiter, not logged
  return {
    name,
    withLock(resource, critical) {
      return peerWithLock(
        name,
        {
          acquire: () => redlock.acquire([resource], leaseMs),
          notHad: () => true, // whatever failed redlock's acquire, the lock was not had
          release: (lock) => lock.release(),
        },
        critical,
      );
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
    case 'redlock:retry-10s':
      return redlockContender(name, redisUrl);
    default:
      return ourContender(name, redisUrl, processId);
  }
}
