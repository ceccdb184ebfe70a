import { Redlock } from '@sesamecare-oss/redlock';
import { createLockStrategies, LockRuntime, LockTimeoutError, noLockEvents } from '@app/lock';
import { Redis } from 'ioredis';
import { Mutex, TimeoutError } from 'redis-semaphore';

/** The ceiling's "lock": none, the section runs as it is, one process, one waiter. */
export const NO_LOCK = 'section alone, no lock';

/** Lease, and wait, for every contender: redis-semaphore's defaults (10 s each), so its settings stay default. */
export const leaseMs = 10_000;

/** The lock was not had in time: the waiter counts a failed acquisition and asks again. */
export class AcquireFailed extends Error {}

/** Acquire, run `critical`, release; AcquireFailed when not had. The bench ends the process, connections and all. */
export type WithLock = (resource: string, critical: () => Promise<void>) => Promise<void>;

/** Rethrows an error that says the lock was not had as AcquireFailed, any other as it is. */
const notHad = (isNotHad: (error: unknown) => boolean) => (error: unknown) => {
  throw isNotHad(error) ? new AcquireFailed('lock not had', { cause: error }) : error;
};

function ours(strategyName: string, handoffLimit?: number) {
  return (redisUrl: string, replicaId: string): WithLock => {
    const runtime = LockRuntime.connect({ redisUrl, replicaId, handoffLimit });
    const strategy = createLockStrategies(runtime, noLockEvents).find((s) => s.name === strategyName);
    if (!strategy) throw new Error(`@app/lock has no strategy ${strategyName}`);
    const timedOut = notHad((error) => error instanceof LockTimeoutError);
    return (resource, critical) => strategy.run(resource, { leaseMs, waitMs: leaseMs }, critical).catch(timedOut);
  };
}

/** A peer's lock on its own connection: `critical` once `acquire` gave it, then released whether or not it threw. */
function peer(acquireOn: (redis: Redis) => (resource: string) => Promise<{ release(): Promise<unknown> }>) {
  return (redisUrl: string): WithLock => {
    const acquire = acquireOn(new Redis(redisUrl));
    return (resource, critical) => acquire(resource).then((held) => critical().finally(() => held.release()));
  };
}

const redisSemaphore = peer((redis) => (resource) => {
  const mutex = new Mutex(redis, resource);
  return mutex.acquire().then(
    () => mutex,
    notHad((error) => error instanceof TimeoutError),
  );
});

const redlock = peer((redis) => {
  const client = new Redlock([redis]);
  client.on('error', () => undefined); // failed attempts are counted by the waiter, not logged
  return (resource) => client.acquire([resource], leaseMs).catch(notHad(() => true)); // whatever failed, not had
});

/** Ours as shipped, ours without hand-off inside a process (the ablation), and the Node peers at their defaults. */
export const CONTENDERS = {
  'owner-checked': { ours: true, create: ours('owner-checked') },
  'owner-checked:no-local-handoff': { ours: true, create: ours('owner-checked', 0) },
  watchdog: { ours: true, create: ours('watchdog') },
  fenced: { ours: true, create: ours('fenced') },
  'redis-semaphore': { ours: false, create: redisSemaphore },
  redlock: { ours: false, create: redlock },
} as const;

export type ContenderName = keyof typeof CONTENDERS;
export const contenderNames = Object.keys(CONTENDERS) as ContenderName[];

export function createContender(name: string, redisUrl: string, replicaId: string): WithLock {
  if (name === NO_LOCK) return (_resource, critical) => critical();
  return CONTENDERS[name as ContenderName].create(redisUrl, replicaId);
}
