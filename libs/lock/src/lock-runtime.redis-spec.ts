import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import {
  deferred,
  probeClient,
  startReplica,
  uniqueResource,
  within,
  type TestReplica,
} from '../../../test/redis/lock-kit';
import { lockKeys } from './lock-keys';

// Shutdown: give back every held lock, stop the renewer before the connections go.
let replica: TestReplica;
let probe: Redis;

beforeEach(() => {
  replica = startReplica('api-1');
  probe = probeClient();
});
afterEach(async () => {
  await replica.close();
  await probe.quit();
});

it('releaseAll gives back every lock this process holds, once', async () => {
  const resources = ['owner-checked', 'watchdog', 'fenced'].map((name) => ({
    name,
    resource: uniqueResource(`all-${name}`),
  }));
  const finish = deferred();
  const holding = resources.map(() => deferred());
  const runs = resources.map(({ name, resource }, i) =>
    replica.strategy(name).run(resource, { leaseMs: 10_000, waitMs: 1000 }, async () => {
      holding[i].resolve();
      await finish.promise;
    }),
  );
  await Promise.all(holding.map((h) => h.promise));
  expect(await replica.runtime.releaseAll()).toBe(3);
  for (const { resource } of resources) expect(await probe.exists(lockKeys(resource).lock)).toBe(0);
  finish.resolve();
  await Promise.all(runs);
  for (const { resource } of resources) {
    expect(replica.events.of('release', resource)).toHaveLength(1);
    expect(replica.events.of('release-refused', resource)).toHaveLength(0);
  }
  expect(replica.runtime.heldCount).toBe(0);
});

it('close stops the renewer first: no renewal after it', async () => {
  const resource = uniqueResource('close-renewer');
  const finish = deferred();
  const holding = deferred();
  // A lease long enough that a loaded CI machine still renews in time (every 100 ms).
  const leaseMs = 300;
  const run = replica.strategy('watchdog').run(resource, { leaseMs, waitMs: 1000 }, async () => {
    holding.resolve();
    await finish.promise;
  });
  await holding.promise;
  await within(replica.events.next('renew', resource), 5000, 'a first renewal');
  await replica.close();
  const renewals = replica.events.of('renew', resource).length;
  await sleep(1.5 * leaseMs);
  expect(replica.events.of('renew', resource)).toHaveLength(renewals);
  expect(await probe.exists(lockKeys(resource).lock)).toBe(0); // the lease ran out on its own
  finish.resolve();
  await run;
});
