import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { lockKeys } from '../../libs/lock/src/lock-keys';
import type { ReleaseOutcome } from '../../libs/lock/src/verbs/attempt';
import { releaseDel } from '../../libs/lock/src/verbs/release-del';
import { releaseFair } from '../../libs/lock/src/verbs/release-fair';
import { releaseGetdel } from '../../libs/lock/src/verbs/release-getdel';
import type { LockEvent, LockEventSink } from '../../libs/lock/src/lock-events';
import { LockRuntime } from '../../libs/lock/src/lock-runtime';
import type { LockRuntimeOptions } from '../../libs/lock/src/lock-runtime-options';
import { createLockStrategies } from '../../libs/lock/src/lock-strategies';
import type { LockStrategy } from '../../libs/lock/src/lock-strategy';
import { connectRedis, type RedisTarget } from '../../libs/lock/src/redis/redis-target';
import type { RedisLockStrategy } from '../../libs/lock/src/strategies/redis-lock.strategy';

/** The private test Redis started by global-setup. */
export function testRedisUrl(): string {
  const url = process.env.REDIS_TEST_URL;
  if (!url) throw new Error('REDIS_TEST_URL is not set: run with --selectProjects redis');
  return url;
}

/**
 * The Redis the specs run on: the private server, or in the redis-cluster project the private
 * cluster (REDIS_TEST_CLUSTER_URLS), so one spec runs against both.
 */
export function testRedisTarget(): RedisTarget {
  const nodeUrls = process.env.REDIS_TEST_CLUSTER_URLS?.split(',');
  return nodeUrls ? { kind: 'cluster', nodeUrls } : { kind: 'single', url: testRedisUrl() };
}

/** A resource name no other spec or run uses. */
export function uniqueResource(label: string): string {
  return `test:${label}:${randomUUID().slice(0, 8)}`;
}

/** Records every event, and lets a spec wait for one. */
export class RecordingSink implements LockEventSink {
  readonly events: LockEvent[] = [];
  private readonly watchers: { match: (e: LockEvent) => boolean; resolve: (e: LockEvent) => void }[] = [];

  emit(event: LockEvent): void {
    this.events.push(event);
    for (const watcher of [...this.watchers]) {
      if (!watcher.match(event)) continue;
      this.watchers.splice(this.watchers.indexOf(watcher), 1);
      watcher.resolve(event);
    }
  }

  of(type: LockEvent['type'], resource?: string): LockEvent[] {
    return this.events.filter((e) => e.type === type && (resource === undefined || e.resource === resource));
  }

  next(type: LockEvent['type'], resource: string): Promise<LockEvent> {
    return new Promise((resolve) =>
      this.watchers.push({ match: (e) => e.type === type && e.resource === resource, resolve }),
    );
  }
}

/** One simulated replica: its own connections, renewer, local lines and strategies. */
export interface TestReplica {
  readonly runtime: LockRuntime;
  readonly events: RecordingSink;
  strategy(name: string): RedisLockStrategy;
  close(): Promise<void>;
}

export function startReplica(replicaId: string, options: Partial<LockRuntimeOptions> = {}): TestReplica {
  const runtime = LockRuntime.connect({
    redisUrl: testRedisUrl(),
    redisTarget: testRedisTarget(),
    replicaId,
    ...options,
  });
  const events = new RecordingSink();
  const byName = new Map<string, LockStrategy>(createLockStrategies(runtime, events).map((s) => [s.name, s]));
  return {
    runtime,
    events,
    strategy: (name) => {
      const found = byName.get(name);
      if (!found) throw new Error(`no strategy ${name}`);
      return found as RedisLockStrategy;
    },
    close: () => runtime.close(),
  };
}

/** A plain client to look at keys behind the library's back (a Cluster client on the cluster). */
export function probeClient(target: RedisTarget | string = testRedisTarget()): Redis {
  return connectRedis(target, { maxRetriesPerRequest: 1, retryStrategy: (attempt) => Math.min(50 * attempt, 1000) });
}

/** Counts critical sections inside at once; `max` > 1 means mutual exclusion failed. */
export class OverlapCounter {
  inside = 0;
  max = 0;
  entries = 0;

  enter(): void {
    this.inside++;
    this.entries++;
    this.max = Math.max(this.max, this.inside);
  }

  leave(): void {
    this.inside--;
  }
}

/** A promise with its resolve exposed. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Rejects if `promise` has not settled within `ms`: a guard, never the thing under test. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Blocks the event loop: a stop-the-world pause in which no timer, renewer included, runs. */
export function freezeEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

/** The Redis strategies of this library (the in-process ones are tested elsewhere). */
export const REDIS_STRATEGIES = ['setnx', 'set-nx-px', 'owner-checked', 'reentrant', 'watchdog', 'fenced'] as const;

/** The Redis strategies whose waiters queue in Redis (setnx and set-nx-px retry instead). */
export const QUEUED_STRATEGIES = ['owner-checked', 'reentrant', 'watchdog', 'fenced'] as const;

/** Resolves once `count` processes are queued for `resource` in Redis (their line's fronts). Polls Redis state. */
export async function untilSomeoneWaits(probe: Redis, resource: string, count = 1): Promise<void> {
  const keys = lockKeys(resource);
  await within(
    (async () => {
      while ((await probe.llen(keys.queue)) < count) await sleep(2);
    })(),
    5000,
    'a waiter queueing',
  );
}

/**
 * A release by `owner` of `resource`, as the named strategy's release verb runs it: how a
 * non-owner's release is shown refused.
 */
export async function releaseAs(
  redis: Redis,
  strategy: string,
  resource: string,
  owner: string,
): Promise<ReleaseOutcome> {
  const keys = lockKeys(resource);
  switch (strategy) {
    case 'setnx':
      return releaseDel(redis, keys);
    case 'set-nx-px':
      return releaseGetdel(redis, keys, owner);
    case 'owner-checked':
      return releaseFair(redis, keys, { kind: 'string', fenced: false }, owner, 1000);
    case 'fenced':
      return releaseFair(redis, keys, { kind: 'string', fenced: true }, owner, 1000);
    default:
      return releaseFair(redis, keys, { kind: 'hash', fenced: false }, owner, 1000);
  }
}
