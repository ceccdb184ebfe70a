import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { uniqueResource, untilSomeoneWaits, type TestReplica } from '../../../../test/redis/lock-kit';
import { holdInside, replicasForEachTest } from '../../../../test/redis/replica-fixtures';
import type { HeldLock } from '../lock-strategy';
import { lockKeys } from '../lock-keys';
import { QUEUE_TIMING } from './queue-timing';

// A waiter handed the lock by a queue release starts on the claim lease. With nobody of its own
// process behind it, its claim (which starts the full lease) waits until the section asks for its
// signal or half the claim lease has gone; a short section needs none.
let replicas: TestReplica[];
let probe: Redis;
const options = { leaseMs: 10_000, waitMs: 10_000 };

replicasForEachTest(['api-0', 'api-1'], (started) => ({ replicas, probe } = started));

/** b's waiter, handed the lock by a's release; `inside` runs in its section and returns what it saw. */
async function handedBy<T>(resource: string, inside: (held: HeldLock) => Promise<T>): Promise<T> {
  const [a, b] = replicas;
  const holder = await holdInside(a.strategy('owner-checked'), resource, options);
  const waiter = b.strategy('owner-checked').run(resource, options, async (held) => {
    await b.runtime.call((redis) => redis.ping()); // anything sent before is done
    return inside(held);
  });
  await untilSomeoneWaits(probe, resource);
  holder.leave();
  await holder.run;
  return waiter;
}

const pttl = (resource: string) => probe.pttl(lockKeys(resource).lock);

it('a short section makes no claim: the lock stays on the claim lease, and its release hands on by owner', async () => {
  const resource = uniqueResource('claim-none');
  const seen = await handedBy(resource, () => pttl(resource));
  expect(seen).toBeGreaterThan(0);
  expect(seen).toBeLessThanOrEqual(QUEUE_TIMING.claimMs);
  expect(replicas[1].events.of('release', resource)).toHaveLength(1);
  expect(replicas[1].events.of('lost', resource)).toHaveLength(0);
  expect(await probe.exists(lockKeys(resource).lock)).toBe(0);
});

it('a section that asks for its signal claims: its full lease starts', async () => {
  const resource = uniqueResource('claim-look');
  const seen = await handedBy(resource, async (held) => {
    const signal = held.signal;
    await replicas[1].runtime.call((redis) => redis.ping()); // behind the claim
    return { pttl: await pttl(resource), aborted: signal.aborted };
  });
  expect(seen.pttl).toBeGreaterThan(QUEUE_TIMING.claimMs);
  expect(seen.aborted).toBe(false);
});

it('a hold that outlives half the claim lease claims', async () => {
  const resource = uniqueResource('claim-late');
  const seen = await handedBy(resource, async () => {
    await sleep(QUEUE_TIMING.claimMs / 2 + 100); // the claim's timer, set first, fires first
    await replicas[1].runtime.call((redis) => redis.ping()); // behind the claim
    return pttl(resource);
  });
  expect(seen).toBeGreaterThan(QUEUE_TIMING.claimMs);
});

it('a waiter with another of its process behind claims at once: the run may go on by local hand-off', async () => {
  const resource = uniqueResource('claim-behind');
  const [a, b] = replicas;
  const holder = await holdInside(a.strategy('owner-checked'), resource, options);
  const leases: number[] = [];
  const run = () =>
    b.strategy('owner-checked').run(resource, options, async () => {
      await b.runtime.call((redis) => redis.ping()); // behind the claim or hand-off
      leases.push(await pttl(resource));
    });
  const first = run();
  await untilSomeoneWaits(probe, resource);
  const second = run(); // in b's local line, behind the first, as run() returns
  holder.leave();
  await Promise.all([holder.run, first, second]);
  expect(leases).toHaveLength(2);
  expect(Math.min(...leases)).toBeGreaterThan(QUEUE_TIMING.claimMs);
});
