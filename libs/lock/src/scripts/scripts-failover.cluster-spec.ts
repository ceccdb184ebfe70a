import type { Redis } from 'ioredis';
import { defineStockCommands, stockKeys } from '@app/redis-stock';
import { replicaOfMaster } from '../../../../test/redis/cluster-failover';
import { probeClient } from '../../../../test/redis/lock-kit';
import { lockKeys } from '../lock-keys';
import { asCluster } from '../redis/redis-target';
import { defineLockCommands, LUA_COMMANDS } from './lua-commands';

// ioredis #1405: NOSCRIPT after a failover. The script cache is not replicated, so a freshly
// promoted master knows none of our scripts: every one must still run (EVALSHA, then EVAL).
jest.setTimeout(30_000);

const couponId = 900_000 + Math.floor(Math.random() * 90_000);
const keys = lockKeys(`coupon:${couponId}`); // same hash tag as the coupon's stock keys
const stock = stockKeys(couponId);
let redis: Redis;

beforeAll(() => {
  redis = defineLockCommands(probeClient());
  defineStockCommands(redis);
});
afterAll(() => redis.quit());

/** Every script once, each on clean keys of the coupon's slot; returns what each answered. */
async function runEveryScript(): Promise<unknown[]> {
  const answers: unknown[] = [];
  const call = redis as unknown as Record<string, (...args: (string | number)[]) => Promise<unknown>>;
  for (const [name, [, numberOfKeys]] of Object.entries(LUA_COMMANDS)) {
    await redis.del(keys.lock, keys.fence, keys.queue, keys.heartbeats);
    // acquire.lua takes the lock, its queue, the heartbeats and the fence counter.
    const scriptKeys = [keys.lock, keys.queue, keys.heartbeats, keys.fence];
    // Every ARGV as 1000: a valid value for each script (a kind other than 'hash' is a string lock).
    answers.push(await call[name](...scriptKeys.slice(0, numberOfKeys), 1000, 1000, 1000, 1000, 1000, 1000));
  }
  await redis.del(stock.counter, stock.reservations, stock.generation, stock.epoch, stock.loading, stock.buyers);
  answers.push(await redis.stockTake(stock.counter, stock.reservations, 'a|1', 5000));
  answers.push(await redis.stockLoad(stock.counter, 2));
  answers.push(
    await redis.stockVoid(
      stock.counter,
      stock.reservations,
      stock.generation,
      stock.epoch,
      stock.loading,
      stock.buyers,
      stock.deadBuyers,
    ),
  );
  answers.push(await redis.stockLoadClaim(stock.counter, stock.epoch, stock.loading, 't', 5000));
  answers.push(await redis.stockLoadBuyers(stock.buyers, stock.loading, 't', 'u', '1-1'));
  answers.push(await redis.stockLoadEpoch(stock.counter, stock.epoch, stock.loading, 2, '1', 't'));
  answers.push(await redis.stockUnclaim(stock.loading, 't'));
  answers.push(await redis.stockTake(stock.counter, stock.reservations, 'a|1', 5000));
  answers.push(await redis.stockGiveBack(stock.counter, stock.reservations, 'a|1'));
  answers.push(
    await redis.stockReconcile(
      stock.counter,
      stock.reservations,
      `${stock.counter}:orders`,
      stock.generation,
      '2',
      '1',
      2,
    ),
  );
  return answers;
}

/** Fencing tokens carry the time: compared by kind, not value. */
const shape = (answers: unknown[]) =>
  JSON.stringify(answers, (_, v: unknown) => (typeof v === 'number' && v > 1e9 ? 'token' : v));

it('runs every lock and stock script on a freshly promoted master', async () => {
  const cluster = asCluster(redis)!;
  expect(cluster).toBeDefined();
  const before = shape(await runEveryScript());

  // Promote the replica of the coupon's master (a manual failover: the old master steps down
  // first, so no script can still run there once the replica is master).
  const promoted = await replicaOfMaster(redis, keys.lock);
  try {
    await promoted.cluster('FAILOVER');
    while ((await promoted.role())[0] !== 'master') await new Promise((r) => setTimeout(r, 20));
    await promoted.script('FLUSH'); // nothing cached there, whatever the replication did

    expect(shape(await runEveryScript())).toEqual(before);
    // The new master knows every lock and stock script now: each ran there. (Not the client's slot
    // map, which a node still gossiping the old topology may point back at the old master a moment.)
    const defined: Record<string, { sha: string }> = redis.scriptsSet;
    const scripts = Object.values(defined);
    expect(scripts).toHaveLength(Object.keys(LUA_COMMANDS).length + 9); // and the nine stock scripts
    const shas = scripts.map((script) => script.sha);
    expect(await promoted.script('EXISTS', ...shas)).toEqual(shas.map(() => 1));
  } finally {
    await promoted.quit();
  }
});
