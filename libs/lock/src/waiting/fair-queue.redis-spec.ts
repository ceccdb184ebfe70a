import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  deferred,
  OverlapCounter,
  startReplica,
  uniqueResource,
  untilSomeoneWaits,
  within,
  type TestReplica,
} from '../../../../test/redis/lock-kit';
import { holdInside, replicasForEachTest } from '../../../../test/redis/replica-fixtures';
import { lockKeys } from '../lock-keys';
import { LockAbortedError, LockTimeoutError } from '../lock.errors';
import { POLL_MS } from '../strategies/front-in-redis';
import { HEARTBEAT_MS } from '../strategies/lock-verbs';

// The guarantees of the one waiting design, across simulated processes (one runtime, connections
// and lines each), sequenced on Redis state: who is queued, who owns the key. Timers only guard.
jest.setTimeout(30_000);

let replicas: TestReplica[];
let probe: Redis;
const options = { leaseMs: 10_000, waitMs: 10_000 };

replicasForEachTest(['api-0', 'api-1', 'api-2', 'api-3'], (started) => ({ replicas, probe } = started));

/** A holder in the first replica, inside until `leave()`. */
const hold = (resource: string) => holdInside(replicas[0].strategy('owner-checked'), resource, options);

/** Nothing of `resource` is left in Redis: no lock, queue or heartbeat, no wake-up channel subscribed. */
async function untilNothingLeft(resource: string): Promise<void> {
  const keys = lockKeys(resource);
  await within(
    (async () => {
      for (;;) {
        const channels = (await probe.call('PUBSUB', 'SHARDCHANNELS', `${keys.wakePrefix}*`)) as string[];
        if ((await probe.exists(keys.lock, keys.queue, keys.heartbeats)) === 0 && channels.length === 0) return;
        await sleep(5);
      }
    })(),
    3000,
    'every key and channel gone (a channel lingers a second)',
  );
}

it('serves waiters of three processes in the order they queued', async () => {
  const resource = uniqueResource('fifo');
  const holder = await hold(resource);
  const order: string[] = [];
  const waiters: Promise<void>[] = [];
  for (const [i, replica] of [replicas[3], replicas[1], replicas[2]].entries()) {
    waiters.push(
      replica
        .strategy('owner-checked')
        .run(resource, options, () => Promise.resolve(void order.push(replica.runtime.replicaId))),
    );
    await untilSomeoneWaits(probe, resource, i + 1);
  }
  holder.leave();
  await Promise.all([holder.run, ...waiters]);
  expect(order).toEqual(['api-3', 'api-1', 'api-2']);
  await untilNothingLeft(resource);
});

it('leaves no key or channel once every holder has released, after 30 contenders over three processes', async () => {
  const resource = uniqueResource('clean');
  const overlap = new OverlapCounter();
  await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      replicas[i % 3].strategy('owner-checked').run(resource, options, async () => {
        overlap.enter();
        await sleep(1);
        overlap.leave();
      }),
    ),
  );
  expect(overlap).toMatchObject({ entries: 30, max: 1 });
  await untilNothingLeft(resource);
});

it('a dead process at the front of the queue (killed) delays the next by at most about 1.5 s', async () => {
  const resource = uniqueResource('dead-front');
  const keys = lockKeys(resource);
  const holder = await hold(resource);
  // A process that died just after its last heartbeat: first in the queue, as fresh as a live one.
  const [seconds, micros] = await probe.time();
  const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  await probe
    .multi()
    .rpush(keys.queue, 'deadbeef')
    .zadd(keys.heartbeats, now + HEARTBEAT_MS, 'deadbeef')
    .exec();
  const live = replicas[1].strategy('owner-checked').run(resource, options, () => Promise.resolve(Date.now()));
  await untilSomeoneWaits(probe, resource, 2);
  holder.leave();
  await holder.run;
  const releasedAt = Date.now();
  const enteredAt = await within(live, 3000, 'the live waiter');
  expect(enteredAt - releasedAt).toBeLessThan(1500);
  await untilNothingLeft(resource);
});

it('a lost wake-up delays the waiter by at most two polls', async () => {
  const resource = uniqueResource('lost-wake');
  const keys = lockKeys(resource);
  await probe.set(keys.lock, 'someone-else', 'PX', 10_000);
  const waiter = replicas[1].strategy('owner-checked').run(resource, options, () => Promise.resolve(Date.now()));
  await untilSomeoneWaits(probe, resource);
  await sleep(20); // the waiter is asleep, its subscription confirmed
  // What a release does, minus its message.
  await probe.del(keys.lock);
  const freedAt = Date.now();
  const enteredAt = await within(waiter, 5000, 'the waiter without its message');
  expect(enteredAt - freedAt).toBeLessThan(2 * POLL_MS);
});

it('waitMs 0 makes exactly one attempt, answers at once, and queues nothing', async () => {
  const resource = uniqueResource('once');
  const holder = await hold(resource);
  const calls = jest.spyOn(replicas[1].runtime, 'call');
  const started = Date.now();
  await expect(
    replicas[1].strategy('owner-checked').run(resource, { leaseMs: 1000, waitMs: 0 }, () => Promise.resolve()),
  ).rejects.toBeInstanceOf(LockTimeoutError);
  expect(Date.now() - started).toBeLessThan(200);
  expect(calls).toHaveBeenCalledTimes(1);
  expect(await probe.exists(lockKeys(resource).queue)).toBe(0);
  holder.leave();
  await holder.run;
  await replicas[1].strategy('owner-checked').run(resource, { leaseMs: 1000, waitMs: 0 }, () => Promise.resolve());
  expect(calls).toHaveBeenCalledTimes(3); // one attempt, then the release
});

it('waitMs 0 behind a waiter of its own process still makes its one attempt, and leaves that waiter its place', async () => {
  const resource = uniqueResource('once-behind');
  const keys = lockKeys(resource);
  const holder = await hold(resource);
  const front = replicas[1].strategy('owner-checked').run(resource, options, () => Promise.resolve('front'));
  await untilSomeoneWaits(probe, resource);
  const calls = jest.spyOn(replicas[1].runtime, 'call');
  const once = replicas[1]
    .strategy('owner-checked')
    .run(resource, { leaseMs: 1000, waitMs: 0 }, () => Promise.resolve());
  const error = (await once.catch((e: unknown) => e)) as LockTimeoutError;
  expect(error).toBeInstanceOf(LockTimeoutError);
  expect(error.holderTtlMs).toBeGreaterThan(5000); // what its own attempt saw of the holder
  expect(calls.mock.calls.length).toBeGreaterThanOrEqual(1);
  expect(await probe.lrange(keys.queue, 0, -1)).toEqual([replicas[1].runtime.processTag]);
  holder.leave();
  await holder.run;
  expect(await front).toBe('front');
  await untilNothingLeft(resource);
});

it("waitMs 0 behind a waiter of its own process attempts as a newcomer: a free lock stays the queued front's", async () => {
  const resource = uniqueResource('once-free');
  const keys = lockKeys(resource);
  await probe.set(keys.lock, 'someone-else', 'PX', 10_000);
  const front = replicas[1].strategy('owner-checked').run(resource, options, () => Promise.resolve('front'));
  await untilSomeoneWaits(probe, resource);
  await probe.del(keys.lock); // freed without a wake-up: the front sleeps on until its poll
  let ran = false;
  const once = replicas[1]
    .strategy('owner-checked')
    .run(resource, { leaseMs: 1000, waitMs: 0 }, () => Promise.resolve(void (ran = true)));
  await expect(once).rejects.toBeInstanceOf(LockTimeoutError);
  expect(ran).toBe(false);
  expect(await within(front, 3000, 'the front, at its poll')).toBe('front');
  await untilNothingLeft(resource);
});

it('a cancelled waiter leaves at once, never runs its section, leaves nothing behind, and the next is served', async () => {
  const resource = uniqueResource('cancelled');
  const keys = lockKeys(resource);
  const holder = await hold(resource);
  const controller = new AbortController();
  const behind = new AbortController();
  let cancelledRan = 0;
  const run = (replica: TestReplica, signal: AbortSignal) =>
    replica.strategy('owner-checked').run(resource, { ...options, signal }, () => Promise.resolve(void cancelledRan++));
  const cancelled = run(replicas[1], controller.signal); // the front of its line, queued in Redis
  await untilSomeoneWaits(probe, resource);
  const cancelledBehind = run(replicas[1], behind.signal); // in its line, behind that front
  const next = replicas[2].strategy('owner-checked').run(resource, options, () => Promise.resolve('next'));
  await untilSomeoneWaits(probe, resource, 2);
  behind.abort();
  controller.abort();
  await expect(cancelled).rejects.toMatchObject({ name: 'LockAbortedError', code: 'LOCK.ABORTED' });
  await expect(cancelledBehind).rejects.toBeInstanceOf(LockAbortedError);
  expect(await probe.lrange(keys.queue, 0, -1)).toEqual([replicas[2].runtime.processTag]);
  holder.leave();
  await holder.run;
  expect(await next).toBe('next');
  expect(cancelledRan).toBe(0);
  expect(replicas[1].events.of('acquire', resource)).toHaveLength(0);
  await untilNothingLeft(resource);
});

it('a waiter cancelled just as the holder lets go never runs its section, and leaves nothing behind', async () => {
  const resource = uniqueResource('cancelled-late');
  const controller = new AbortController();
  const holder = await hold(resource);
  const ran = deferred<boolean>();
  const cancelled = replicas[1]
    .strategy('owner-checked')
    .run(resource, { ...options, signal: controller.signal }, () => Promise.resolve(ran.resolve(true)));
  await untilSomeoneWaits(probe, resource);
  holder.leave();
  controller.abort(); // as the release is on its way
  await holder.run;
  await expect(cancelled).rejects.toBeInstanceOf(LockAbortedError);
  ran.resolve(false);
  expect(await ran.promise).toBe(false);
  await untilNothingLeft(resource);
});

it('fenced tokens strictly increase across processes, in the order holders get in', async () => {
  const resource = uniqueResource('fenced-order');
  const tokens: number[] = [];
  await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      replicas[i % 3].strategy('fenced').run(resource, options, async (lock) => {
        tokens.push(await lock.fenceToken!);
        await sleep(1);
      }),
    ),
  );
  expect(tokens).toHaveLength(30);
  for (let i = 1; i < tokens.length; i++) expect(tokens[i]).toBeGreaterThan(tokens[i - 1]);
});

it('a process with hand-offs off serves its own waiters through Redis, in turn with the others', async () => {
  const off = ['off-1', 'off-2'].map((id) => startReplica(id, { handoffLimit: 0 }));
  try {
    const resource = uniqueResource('no-handoff');
    const holders: string[] = [];
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        off[i % 2].strategy('owner-checked').run(resource, options, async () => {
          holders.push(off[i % 2].runtime.replicaId);
          await sleep(2);
        }),
      ),
    );
    expect(holders).toHaveLength(12);
    expect(off.flatMap((r) => r.events.of('acquire', resource)).filter((e) => e.detail === 'handed off')).toEqual([]);
  } finally {
    await Promise.all(off.map((r) => r.close()));
  }
});
