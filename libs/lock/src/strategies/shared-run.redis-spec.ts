import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { probeClient, startReplica, uniqueResource, type TestReplica } from '../../../../test/redis/lock-kit';
import { holdInside } from '../../../../test/redis/replica-fixtures';
import { lockKeys } from '../lock-keys';

// owner-checked shares its run (lock cohorting): a local hand-off leaves Redis as it is while the
// run's lease still covers the taker's, and the taker holds under the run's owner value.
let probe: Redis;
let a: TestReplica;

beforeAll(() => {
  probe = probeClient();
});
beforeEach(() => {
  a = startReplica('api-1', { handoffWindowMs: 10_000 }); // runs end by count only, however slow the machine
});
afterEach(() => a.close());
afterAll(() => probe.quit());

interface Seen {
  readonly owner: string;
  readonly inRedis: string | null;
  readonly pttl: number;
  readonly lost: boolean;
}

it('holders of one run share its owner value and lease; each asking for its signal keeps it', async () => {
  const resource = uniqueResource('shared-run');
  const { lock } = lockKeys(resource);
  const seen: Seen[] = [];
  await Promise.all(
    Array.from({ length: 6 }, () =>
      a.strategy('owner-checked').run(resource, { leaseMs: 60_000, waitMs: 10_000 }, async (held) => {
        const signal = held.signal; // asks: a holder within a run is checked in Redis now
        const [inRedis, pttl] = await Promise.all([probe.get(lock), probe.pttl(lock)]);
        await a.runtime.call((redis) => redis.ping()); // behind the check on the lock's connection
        seen.push({ owner: held.owner, inRedis, pttl, lost: signal.aborted });
        // The run's lease drains: no hand-off renews it.
        await sleep(10);
      }),
    ),
  );
  expect(seen).toHaveLength(6);
  expect(new Set(seen.map((s) => s.owner)).size).toBe(1);
  expect(seen.every((s) => s.inRedis === seen[0].owner && !s.lost)).toBe(true);
  expect(seen[5].pttl).toBeLessThanOrEqual(seen[0].pttl - 5 * 10);
  expect(a.events.of('acquire', resource).filter((e) => e.detail === 'handed off')).toHaveLength(5);
  expect(a.events.of('lost', resource)).toHaveLength(0);
  expect(await probe.exists(lock)).toBe(0);
});

it('a run whose lease no longer covers the taker hands off by script: its own value and a fresh lease', async () => {
  const resource = uniqueResource('shared-run-renewed');
  const { lock } = lockKeys(resource);
  let firstOwner = '';
  const first = await holdInside(
    a.strategy('owner-checked'),
    resource,
    { leaseMs: 1000, waitMs: 1000 },
    (held) => (firstOwner = held.owner),
  );
  const second = a.strategy('owner-checked').run(resource, { leaseMs: 1000, waitMs: 5000 }, async (held) => {
    await a.runtime.call((redis) => redis.ping()); // behind the hand-off script on the lock's connection
    return { owner: held.owner, inRedis: await probe.get(lock), pttl: await probe.pttl(lock) };
  });
  while (!a.runtime.handOffSlot(lock, 'owner-checked')) await sleep(1);
  await sleep(30); // more than a hundredth of the lease gone
  first.leave();
  await first.run;
  const taker = await second;
  expect(taker.owner).not.toBe(firstOwner);
  expect(taker.inRedis).toBe(taker.owner);
  expect(taker.pttl).toBeGreaterThan(970);
});
