import type { Redis } from 'ioredis';
import {
  deferred,
  startReplica,
  uniqueResource,
  untilSomeoneWaits,
  within,
  type TestReplica,
} from '../../../../test/redis/lock-kit';
import { holdInside, replicasForEachTest } from '../../../../test/redis/replica-fixtures';
import { lockKeys } from '../lock-keys';
import { LockAbortedError, LockTimeoutError } from '../lock.errors';
import { QUEUE_TIMING } from './queue-timing';

// The queue wait mode across simulated processes (one runtime, connections and local line each),
// sequenced on Redis state: who is queued, who owns the key. Timers only guard against hangs.
jest.setTimeout(30_000);

let replicas: TestReplica[];
let probe: Redis;
const options = { leaseMs: 10_000, waitMs: 10_000 };

replicasForEachTest(['api-0', 'api-1', 'api-2', 'api-3'], (started) => ({ replicas, probe } = started));

/** A holder in the first replica, inside until `leave()`. */
const hold = (resource: string) => holdInside(replicas[0].strategy('owner-checked'), resource, options);

it('serves waiters of three processes in the order they queued, each handed the lock by the release', async () => {
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
  for (const replica of [replicas[3], replicas[1], replicas[2]]) {
    expect(replica.events.of('acquire', resource)[0].detail).toBe('from the queue');
    // Each section let go before its claim's turn came: the release sent it first, so none was refused.
    expect(replica.events.of('lost', resource)).toEqual([]);
  }
  expect(await probe.exists(lockKeys(resource).lock, lockKeys(resource).queue)).toBe(0);
});

it('a waiter handed the lock whose section ends at once claims first: the local waiter it hands on holds the full lease', async () => {
  const resource = uniqueResource('claim-first');
  const holder = await hold(resource);
  const strategy = replicas[1].strategy('owner-checked');
  const first = strategy.run(resource, options, () => Promise.resolve()); // lets go before the claim's turn
  await untilSomeoneWaits(probe, resource);
  const second = strategy.run(resource, options, async () => {
    await replicas[1].runtime.call((redis) => redis.ping()); // behind the claim and the hand-off on the lock connection
    return probe.pttl(lockKeys(resource).lock);
  }); // in the local line behind the first, from this call on
  holder.leave();
  await Promise.all([holder.run, first]);
  expect(await second).toBeGreaterThan(QUEUE_TIMING.claimMs); // not the claim lease the release handed over
  expect(replicas[1].events.of('acquire', resource).map((e) => e.detail)).toEqual(['from the queue', 'handed off']);
  expect(replicas[1].events.of('lost', resource)).toEqual([]);
});

it('a dropped wake-up costs one heartbeat poll: the waiter claims the lock handed to it all the same', async () => {
  const resource = uniqueResource('dropped');
  const keys = lockKeys(resource);
  await probe.set(keys.lock, 'someone-else', 'PX', 10_000);
  const waiter = replicas[1].strategy('owner-checked').run(resource, options, (lock) => Promise.resolve(lock.owner));
  await untilSomeoneWaits(probe, resource);
  // What a release does, minus its message: the waiter is owner on a claim lease, off the queue.
  const entry = (await probe.lindex(keys.queue, 0))!;
  const owner = entry.slice(entry.indexOf('|') + 1);
  await probe.multi().set(keys.lock, owner, 'PX', QUEUE_TIMING.claimMs).lrem(keys.queue, 1, entry).exec();
  expect(await within(waiter, QUEUE_TIMING.claimMs, 'the waiter claiming without its message')).toBe(owner);
  expect(replicas[1].events.of('acquire', resource)[0].detail).toBe('from the queue');
});

it('two strategies on one lock: a fenced waiter handed it by a release that does not fence still has a token of its own', async () => {
  const resource = uniqueResource('mixed-fence');
  const holder = await hold(resource); // owner-checked: draws no token, and the lock has no counter yet
  const fenced = replicas[1].strategy('fenced').run(resource, options, (lock) => Promise.resolve(lock.fenceToken));
  await untilSomeoneWaits(probe, resource, 1);
  const plain = replicas[2]
    .strategy('owner-checked')
    .run(resource, options, (lock) => Promise.resolve(lock.fenceToken));
  await untilSomeoneWaits(probe, resource, 2);
  holder.leave();
  const token = await fenced; // its claim drew it
  expect(token).toBeGreaterThan(0);
  expect(await plain).toBeUndefined(); // handed on by the fenced release, with a token it does not use
  expect(Number(await probe.get(lockKeys(resource).fence))).toBe(token! + 1);
  await holder.run;
});

it('a killed waiter (its heartbeat stops) holds the lock up at most for its claim lease', async () => {
  const resource = uniqueResource('killed');
  const keys = lockKeys(resource);
  const holder = await hold(resource);
  // A waiter whose process died just after its last heartbeat: first in the queue, still fresh.
  const [seconds] = await probe.time();
  await probe.rpush(keys.queue, 'deadbeef|ghost');
  await probe.zadd(keys.queueDeadlines, Number(seconds) * 1000 + 60_000, 'deadbeef|ghost');
  const live = replicas[1].strategy('owner-checked').run(resource, options, () => Promise.resolve());
  await untilSomeoneWaits(probe, resource, 2);
  holder.leave();
  await holder.run;
  expect(await probe.get(keys.lock)).toBe('ghost'); // handed to the ghost, on a claim lease only
  await within(live, QUEUE_TIMING.claimMs + 2 * QUEUE_TIMING.refreshMs + 500, 'the live waiter after the claim lease');
});

it('a release that comes after the lease ran out neither hands over nor deletes the next holder', async () => {
  const resource = uniqueResource('late-release');
  const keys = lockKeys(resource);
  const nextInside = deferred();
  const nextMayLeave = deferred();
  const lateInside = deferred();
  const lateHolder = replicas[0].strategy('owner-checked').run(resource, { leaseMs: 200, waitMs: 1000 }, async () => {
    lateInside.resolve();
    await within(nextInside.promise, 5000, 'the next holder getting in after the lease');
  });
  await lateInside.promise;
  const next = replicas[1].strategy('owner-checked').run(resource, options, async (lock) => {
    nextInside.resolve();
    await nextMayLeave.promise;
    return lock.owner;
  });
  await lateHolder;
  expect(replicas[0].events.of('release-refused', resource)).toHaveLength(1);
  const nextOwner = await probe.get(keys.lock);
  expect(nextOwner).not.toBeNull(); // still the next holder's
  nextMayLeave.resolve();
  expect(await next).toBe(nextOwner);
});

it('a cancelled waiter leaves the queue at once, never holds the lock, and the next one is served', async () => {
  const resource = uniqueResource('cancelled');
  const keys = lockKeys(resource);
  const holder = await hold(resource);
  const controller = new AbortController();
  let cancelledRan = false;
  const cancelled = replicas[1]
    .strategy('owner-checked')
    .run(resource, { ...options, signal: controller.signal }, () => Promise.resolve(void (cancelledRan = true)));
  await untilSomeoneWaits(probe, resource);
  const next = replicas[2].strategy('owner-checked').run(resource, options, () => Promise.resolve());
  await untilSomeoneWaits(probe, resource, 2);
  controller.abort();
  await expect(cancelled).rejects.toMatchObject({ name: 'LockAbortedError', code: 'LOCK.ABORTED' });
  await expect(cancelled).rejects.toBeInstanceOf(LockAbortedError);
  expect(await probe.llen(keys.queue)).toBe(1); // only the next waiter is left
  holder.leave();
  await Promise.all([holder.run, next]);
  expect(cancelledRan).toBe(false);
  expect(replicas[1].events.of('acquire', resource)).toHaveLength(0);
});

it('a waiter cancelled after a release handed it the lock passes the lock on, unheld', async () => {
  const resource = uniqueResource('cancelled-handed');
  const keys = lockKeys(resource);
  await probe.set(keys.lock, 'someone-else', 'PX', 10_000);
  const controller = new AbortController();
  const cancelled = replicas[1]
    .strategy('owner-checked')
    .run(resource, { ...options, signal: controller.signal }, () => Promise.resolve('ran'));
  await untilSomeoneWaits(probe, resource);
  const next = replicas[2].strategy('owner-checked').run(resource, options, (lock) => Promise.resolve(lock.owner));
  await untilSomeoneWaits(probe, resource, 2);
  const entry = (await probe.lpop(keys.queue))!;
  await probe.set(keys.lock, entry.slice(entry.indexOf('|') + 1), 'PX', QUEUE_TIMING.claimMs); // message dropped
  controller.abort();
  await expect(cancelled).rejects.toBeInstanceOf(LockAbortedError);
  expect(await within(next, 2000, 'the next waiter')).toEqual(expect.any(String));
});

it('waitMs 0 makes exactly one attempt and answers at once, without queueing', async () => {
  const resource = uniqueResource('once');
  const holder = await hold(resource);
  await expect(
    replicas[1].strategy('owner-checked').run(resource, { leaseMs: 1000, waitMs: 0 }, () => Promise.resolve()),
  ).rejects.toBeInstanceOf(LockTimeoutError);
  expect(await probe.exists(lockKeys(resource).queue)).toBe(0);
  holder.leave();
  await holder.run;
  await replicas[1].strategy('owner-checked').run(resource, { leaseMs: 1000, waitMs: 0 }, () => Promise.resolve());
});

it('waitMode pubsub keeps the earlier path: exclusive across processes, nothing queued in Redis', async () => {
  const pubsub = ['p-1', 'p-2', 'p-3'].map((id) => startReplica(id, { waitMode: 'pubsub' }));
  try {
    const resource = uniqueResource('pubsub');
    let inside = 0;
    let most = 0;
    let queued = 0;
    await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        pubsub[i % 3].strategy('owner-checked').run(resource, options, async () => {
          most = Math.max(most, ++inside);
          queued = Math.max(queued, await probe.llen(lockKeys(resource).queue));
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(queued).toBe(0);
    expect(pubsub.flatMap((r) => r.events.of('acquire', resource))).toHaveLength(15);
  } finally {
    await Promise.all(pubsub.map((r) => r.close()));
  }
});
