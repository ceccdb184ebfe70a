import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Redis } from 'ioredis';
import { ApiClient } from '@app/contract';
import { asCluster, connectRedis } from '@app/lock';
import { orderKeys } from '@app/redis-stock';
import { askRedis } from '../../tools/stack/redis/redis-admin';
import { waitFor } from '../../tools/stack/servers/child';
import { readStack } from '../../tools/stack/stack';
import { TEST_PORT_OFFSET, testPort } from '../ports';
import { audit, burst } from './support/grabs';
import { burstOnFreshCoupon, exactAudit, soldExactly } from './support/sell-out';
import { control, createCoupon, type StackInfo } from './support/stack';

// A stack of its own on a Redis Cluster (three masters, a replica each), then on a Sentinel-watched
// primary, on spare ports: the lock and the stock run on an ioredis Cluster client (or through the
// Sentinels), and the Redis that holds the coupon's lock is killed under load.
const run = promisify(execFile);
jest.setTimeout(180_000);
const ROOT = resolve(__dirname, '..', '..');
const DIR = join(ROOT, '.stack', `cluster-test${TEST_PORT_OFFSET ? `-${TEST_PORT_OFFSET}` : ''}`);
const ENV = {
  STACK_DIR: DIR,
  NGINX_PORT: testPort(28380),
  API_PORT_BASE: testPort(23301),
  PG_PORT: testPort(25632),
  REDIS_PORT: testPort(26579),
  REDLOCK_PORT_BASE: testPort(26581),
  REDIS_REPLICA_PORT: testPort(26586),
  REDIS_SENTINEL_PORT_BASE: testPort(26590),
  REDIS_CLUSTER_PORT_BASE: testPort(22501),
  CONTROL_PORT: testPort(28399),
  LAB_PORT: testPort(28390),
  LAB_SPARE_PORT_BASE: testPort(26850),
  CHAOS_ENABLED: 'true',
  ADMIN_TOKEN: 'cluster-admin-token',
};

type Mode = 'cluster' | 'sentinel';

function cli(command: 'up' | 'down', mode: Mode) {
  const env: NodeJS.ProcessEnv = { ...process.env, REDIS_MODE: mode };
  for (const [name, value] of Object.entries(ENV)) env[name] = String(value);
  const tsx = require.resolve('tsx');
  return run(process.execPath, ['--import', tsx, join(ROOT, 'tools/stack/cli.ts'), command], { cwd: ROOT, env });
}

let info: StackInfo;
let redis: Redis | undefined;

/** Each describe below runs on a stack of its own, one after the other on the same ports. */
function onStack(mode: Mode): void {
  beforeAll(async () => {
    rmSync(DIR, { recursive: true, force: true });
    await cli('up', mode);
    info = (await readStack(DIR))!;
    if (mode !== 'cluster') return;
    redis = connectRedis(
      { kind: 'cluster', nodeUrls: info.redisClusterUrls! },
      { maxRetriesPerRequest: 1, retryStrategy: () => 200 },
    );
    await redis.ping();
  });
  afterAll(async () => {
    redis?.disconnect();
    redis = undefined;
    await cli('down', mode);
  });
}

/** Script calls (EVAL and EVALSHA) per master, by port. */
async function scriptCallsPerMaster(): Promise<Record<string, number>> {
  const calls: Record<string, number> = {};
  for (const node of asCluster(redis!)!.nodes('master')) {
    const stats = await node.info('commandstats');
    const counted = [...stats.matchAll(/^cmdstat_(?:eval|evalsha):calls=(\d+)/gm)];
    calls[String(node.options.port)] = counted.reduce((sum, m) => sum + Number(m[1]), 0);
  }
  return calls;
}

/** Each of `strategies` sells exactly 100 of 100 through nginx, the other 200 told sold out. */
function sellsExactly100(strategies: string[]): void {
  it.each(strategies)('%s sells exactly 100, one holder at a time', async (strategy) => {
    const { seen, result } = await burstOnFreshCoupon(info, {
      via: info.nginxUrl,
      stock: 100,
      users: 300,
      query: { strategy, workMs: 2 },
    });
    expect(seen.counts).toEqual(soldExactly(100, 300));
    expect(result).toEqual(exactAudit(100)); // one statement per grant: none of these strategies batches
  });
}

describe('on a Redis Cluster: 100 units, 300 buyers through nginx', () => {
  onStack('cluster');

  it('runs the replicas on the cluster', () => {
    expect(info.redisMode).toBe('cluster');
    expect(info.redisClusterUrls).toHaveLength(6);
  });

  sellsExactly100(['owner-checked', 'reentrant', 'watchdog', 'fenced', 'redis-lua']);

  it('redis-stream accepts exactly 100 on the cluster and, once its stream is drained, persists exactly 100', async () => {
    const coupon = await createCoupon(info, 100);
    const seen = await burst(info.nginxUrl, coupon.id, 300, { strategy: 'redis-stream' });
    expect(seen.counts).toEqual({ '202': 100, '409 STOCK.SOLD_OUT': 200 });
    const orders = orderKeys(coupon.id).orders;
    const deadline = Date.now() + 30_000;
    while ((await redis!.xlen(orders)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await redis!.xlen(orders)).toBe(0);
    expect(await audit(info, coupon.id)).toMatchObject({ grants: 100, stock: 0, oversold: 0 });
  });

  it("segmented sells exactly 100, and its segments' scripts run on more than one master", async () => {
    const coupon = await createCoupon(info, 100, 8);
    const before = await scriptCallsPerMaster();
    const seen = await burst(info.nginxUrl, coupon.id, 300, { strategy: 'segmented', workMs: 2 });
    const after = await scriptCallsPerMaster();
    expect(seen.counts).toEqual(soldExactly(100, 300));
    expect(await audit(info, coupon.id)).toEqual(exactAudit(100));
    const perMaster = Object.entries(after).map(([port, calls]) => [port, calls - (before[port] ?? 0)] as const);
    console.log(`segmented: script calls per master ${JSON.stringify(Object.fromEntries(perMaster))}`);
    expect(perMaster.filter(([, calls]) => calls > 0).length).toBeGreaterThanOrEqual(2);
  });

  it('a master killed under fenced load: never oversells, and the rest sells once the cluster has failed over', () =>
    killUnderFencedLoad(untilSlotMoved));
});

/** Kills the Redis that holds the coupon's lock under fenced load; returns when the stock is sold. */
async function killUnderFencedLoad(untilFailedOver: (lockKey: string, killedPort: number) => Promise<void>) {
  const coupon = await createCoupon(info, 100);
  const lockKey = `lock:{coupon:${coupon.id}}`;
  const load = burst(info.nginxUrl, coupon.id, 300, { strategy: 'fenced', workMs: 20, waitMs: 20_000 });
  // Kill the coupon lock's master once the load is selling (observed in the database).
  while ((await audit(info, coupon.id)).grants < 10) await new Promise((r) => setTimeout(r, 20));
  const killedAt = Date.now();
  const { stopped } = await control<{ stopped: string }>(info, `/redis/stop?key=${encodeURIComponent(lockKey)}`);
  await untilFailedOver(lockKey, Number(new URL(stopped).port));
  const failoverMs = Date.now() - killedAt;
  const soldAtFailover = (await audit(info, coupon.id)).grants;
  const during = await load;
  // Every answer kept its contract: a grant, sold out, a wait that ran out, or a 503 while no master served.
  for (const answer of Object.keys(during.counts)) {
    expect(answer).toMatch(/^(200|409 STOCK\.SOLD_OUT|429 LOCK\.TIMEOUT|503 \S+)$/);
  }
  // The replicas' clients find the new master on their own; the rest is sent once each says so.
  const replicas = info.replicas.map((r) => new ApiClient({ baseUrl: r.url }));
  await waitFor(
    'every replica healthy after the failover',
    async () => (await Promise.all(replicas.map((r) => r.healthy()))).every(Boolean),
    30_000,
    100,
  );
  const healthyMs = Date.now() - killedAt;
  // The same wait budget as above: this checks that the rest sells, not how fast 300 buyers queue.
  const rest = await burst(info.nginxUrl, coupon.id, 300, { strategy: 'fenced', workMs: 2, waitMs: 20_000 });
  const final = await audit(info, coupon.id);
  console.log(
    `${info.redisMode}: fenced, ${stopped} killed after ${soldAtFailover} grants, replica promoted in ${failoverMs} ms, ` +
      `every replica healthy after ${healthyMs} ms; ` +
      `answers meanwhile ${JSON.stringify(during.counts)}, then ${JSON.stringify(rest.counts)}; ` +
      `audit ${JSON.stringify(final)}`,
  );
  expect(soldAtFailover).toBeLessThan(100);
  expect(final).toMatchObject({ initialStock: 100, stock: 0, grants: 100, oversold: 0, lostUpdates: 0 });
}

describe('on a Sentinel-watched primary: 100 units, 300 buyers through nginx', () => {
  onStack('sentinel');

  it('runs the replicas through the Sentinels', () => {
    expect(info.redisMode).toBe('sentinel');
    expect(info.redisSentinelUrls).toHaveLength(3);
  });

  sellsExactly100(['owner-checked', 'watchdog', 'fenced', 'redis-lua']);

  it('a primary killed under fenced load: never oversells, and the rest sells once a replica is promoted', () =>
    killUnderFencedLoad(untilPromoted));
});

/** Waits until a live node says `key`'s slot is served by a master other than the killed one. */
async function untilSlotMoved(key: string, killedPort: number): Promise<void> {
  const live = info.redisClusterUrls!.map((u) => Number(new URL(u).port)).find((p) => p !== killedPort)!;
  for (;;) {
    const owner = await askRedis(live, async (r) => {
      const slot = await r.cluster('KEYSLOT', key);
      const ranges = await r.cluster('SLOTS');
      return Number(ranges.find(([from, to]) => slot >= from && slot <= to)?.[2][1]);
    }).catch(() => killedPort);
    if (owner !== killedPort) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the Sentinels name a primary other than the killed one. */
async function untilPromoted(_key: string, killedPort: number): Promise<void> {
  const sentinel = Number(new URL(info.redisSentinelUrls![0]).port);
  for (;;) {
    const answer = await askRedis(sentinel, (r) =>
      r.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', info.redisSentinelName!),
    ).catch(() => undefined);
    if (answer && Number((answer as string[])[1]) !== killedPort) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
