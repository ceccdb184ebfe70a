import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestReplica } from '../../../../test/redis/lock-kit';
import { probeClient, startReplica, uniqueResource, untilSomeoneWaits, within } from '../../../../test/redis/lock-kit';
import { failOver } from '../../../../test/redis/cluster-failover';
import { holdInside } from '../../../../test/redis/replica-fixtures';
import { lockKeys, wakeChannel } from '../lock-keys';
import { asCluster, masterFor } from '../redis/redis-target';

// redisson #5761: after a failover the waiters' shard subscriptions must live on the new master,
// else every release's message to them is lost and each turn waits for a poll.
jest.setTimeout(30_000);

const options = { leaseMs: 10_000, waitMs: 10_000 };
let probe: Redis;
let holderSide: TestReplica;
let waiterSide: TestReplica;

beforeEach(() => {
  probe = probeClient();
  holderSide = startReplica('api-a');
  waiterSide = startReplica('api-b');
});
afterEach(async () => {
  await Promise.all([holderSide.close(), waiterSide.close()]);
  await probe.quit();
});

/** How many clients of `node` listen on the shard channel `channel`. */
async function listeners(node: Redis, channel: string): Promise<number> {
  const [, count] = (await node.call('PUBSUB', 'SHARDNUMSUB', channel)) as [string, number];
  return Number(count);
}

it("a waiter's wake channel follows its lock's slot to the promoted master, and the release wakes it there", async () => {
  const resource = uniqueResource('wake-failover');
  const keys = lockKeys(resource);
  const channel = wakeChannel(keys, waiterSide.runtime.processTag);
  const holder = await holdInside(holderSide.strategy('owner-checked'), resource, options);
  const waiter = waiterSide.strategy('owner-checked').run(resource, options, () => Promise.resolve('inside'));
  waiter.catch(() => undefined); // a failed test closes the replica under it
  await untilSomeoneWaits(probe, resource);
  const master = await masterFor(asCluster(probe)!, keys.lock);
  await within(
    (async () => {
      while ((await listeners(master, channel)) < 1) await sleep(5);
    })(),
    5000,
    'the waiter subscribing on the master',
  );

  const promoted = await failOver(probe, keys.lock);
  try {
    await within(
      (async () => {
        while ((await listeners(promoted, channel)) < 1) await sleep(20);
      })(),
      5000,
      'the subscription moving to the promoted master',
    );
  } finally {
    await promoted.quit();
  }
  holder.leave();
  expect(await within(waiter, 5000, 'the waiter taking the lock')).toBe('inside');
  await holder.run;
});
