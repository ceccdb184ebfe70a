import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { deferred } from '../../../../test/redis/lock-kit';
import { startPrivateRedis, type RunningChild } from '../../../../test/redis/private-redis';
import type { LockEvent } from '../lock-events';
import { LockLostError, LockTimeoutError } from '../lock.errors';
import type { HeldLock, LockStrategy } from '../lock-strategy';
import { createRedlockStrategy } from './index';
import { createRedlockClient } from './redlock-client';

// Five independent private Redis nodes on this suite's own ports; outages are real: a node is
// stopped by killing its process (SIGKILL), or frozen with SIGSTOP to play a node that hangs.
// The first free block of five in 26620–26644 is used, so two runs at once do not collide.
const PORT_BLOCKS = [26620, 26625, 26630, 26635, 26640].map((base) => [0, 1, 2, 3, 4].map((i) => base + i));
let PORTS: number[] = [];
const PER_NODE_TIMEOUT_MS = 100;
jest.setTimeout(60_000);

const servers: (RunningChild | undefined)[] = [];
let probes: Redis[] = [];
let events: LockEvent[] = [];
let strategies: (LockStrategy & { close(): Promise<void> })[] = [];
let redlock: LockStrategy;

async function startNode(i: number): Promise<void> {
  servers[i] = await startPrivateRedis(PORTS[i]);
}
/** Starts all five on the first block whose ports are free; stops what it started on a clash. */
async function startAllNodes(): Promise<void> {
  for (const block of PORT_BLOCKS) {
    if (!(await Promise.all(block.map(portIsFree))).every(Boolean)) continue;
    PORTS = block;
    const started = await Promise.allSettled(block.map((_, i) => startNode(i)));
    if (started.every((outcome) => outcome.status === 'fulfilled')) return;
    await Promise.all(servers.filter((server) => server !== undefined).map((server) => server.stop('SIGKILL')));
    servers.length = 0;
  }
  throw new Error('no free block of five ports in 26620–26644');
}
function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer().once('error', () => done(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)));
  });
}
async function killNode(i: number): Promise<void> {
  await servers[i]?.stop('SIGKILL');
  servers[i] = undefined;
}
function signalNode(i: number, signal: 'SIGSTOP' | 'SIGCONT'): void {
  process.kill(servers[i]!.child.pid!, signal);
}
const live = () => [0, 1, 2, 3, 4].filter((i) => servers[i]);
const key = (resource: string) => `lock:{${resource}}`;

/** The lock's value on every live node, read behind the strategy's back. */
async function valuesOn(nodes: number[], resource: string): Promise<(string | null)[]> {
  return Promise.all(nodes.map((i) => probes[i].get(key(resource))));
}

/** Waits until every node votes again (clients reconnected), proven by a key on each. */
async function untilEveryLiveNodeVotes(): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const onAll = await redlock.run('readiness', { leaseMs: 2000, waitMs: 2000 }, async (lock) =>
      (await valuesOn(live(), 'readiness')).every((value) => value === lock.owner),
    );
    if (onAll) return;
    if (Date.now() > deadline) throw new Error('a live node never voted again');
    await sleep(100);
  }
}

/**
 * A holder of `resource` inside its section, and a second run of this process behind it: once the
 * second is next in line (open to a hand-off), `beforeLeave` runs, then the holder leaves.
 * The holder's owner value, the second's answer, and which came first: the second's section
 * starting or the holder's run returning.
 */
async function handedToNext<T>(
  resource: string,
  leaseMs: number,
  taker: (lock: HeldLock) => Promise<T>,
  beforeLeave: () => Promise<unknown> = () => Promise.resolve(),
): Promise<[string, T, string[]]> {
  const options = { leaseMs, waitMs: 5000 };
  const inside = deferred();
  const mayLeave = deferred();
  const order: string[] = [];
  const first = redlock
    .run(resource, options, async (lock) => {
      inside.resolve();
      await mayLeave.promise;
      return lock.owner;
    })
    .finally(() => order.push('giver returned'));
  await inside.promise;
  const second = redlock.run(resource, options, (lock) => {
    order.push('taker started');
    return taker(lock);
  });
  await new Promise(setImmediate); // the second, next in line, is open to a hand-off by now
  await beforeLeave();
  mayLeave.resolve();
  const [firstOwner, taken] = await Promise.all([first, second]);
  return [firstOwner, taken, order];
}

/** `contenders` concurrent runs over the given strategies; an overlap counter records exclusion. */
async function contend(over: LockStrategy[], resource: string, contenders: number) {
  let inside = 0;
  let maxInside = 0;
  let completed = 0;
  const runs = Array.from({ length: contenders }, (_, n) =>
    over[n % over.length].run(resource, { leaseMs: 5000, waitMs: 30_000 }, async () => {
      inside++;
      maxInside = Math.max(maxInside, inside);
      await sleep(2);
      inside--;
      completed++;
    }),
  );
  const outcomes = await Promise.allSettled(runs);
  return { maxInside, completed, failures: outcomes.filter((o) => o.status === 'rejected') };
}

beforeAll(async () => {
  await startAllNodes();
  const urls = PORTS.map((port) => `redis://127.0.0.1:${port}`);
  probes = urls.map((url) => new Redis(url));
  probes.forEach((probe) => probe.on('error', () => undefined));
  const sink = { emit: (event: LockEvent) => events.push(event) };
  // Two strategies on the same nodes stand for two replicas that know nothing of each other.
  strategies = [0, 1].map(() =>
    createRedlockStrategy({ urls, events: sink, perNodeTimeoutMs: PER_NODE_TIMEOUT_MS, retryJitterMs: 20 }),
  );
  redlock = strategies[0];
});

beforeEach(async () => {
  for (let i = 0; i < PORTS.length; i++) if (!servers[i]) await startNode(i);
  await untilEveryLiveNodeVotes();
  await Promise.all(probes.map((probe) => probe.flushall()));
  events = [];
});

afterAll(async () => {
  await Promise.all(strategies.map((strategy) => strategy.close()));
  probes.forEach((probe) => probe.disconnect());
  servers.forEach((server) => server?.child.kill('SIGCONT')); // in case a failed test left one frozen
  await Promise.all(servers.filter((server) => server !== undefined).map((server) => server.stop()));
});

describe('redlock on five real Redis nodes', () => {
  it('holds lock:{resource} = a random owner with the lease on every node, and deletes it everywhere', async () => {
    const seen: HeldLock[] = [];
    const result = await redlock.run('coupon:42', { leaseMs: 5000, waitMs: 1000 }, async (lock) => {
      seen.push(lock);
      expect(await valuesOn(live(), 'coupon:42')).toEqual(PORTS.map(() => lock.owner));
      for (const probe of probes) expect(await probe.pttl('lock:{coupon:42}')).toBeGreaterThan(4000);
      await sleep(30);
      return 'done';
    });
    await redlock.run('coupon:42', { leaseMs: 5000, waitMs: 1000 }, (lock) => {
      seen.push(lock);
      return Promise.resolve();
    });

    expect(result).toBe('done');
    expect(seen[0].strategy).toBe('redlock');
    expect(seen[0].owner).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1].owner).not.toBe(seen[0].owner);
    expect(await valuesOn(live(), 'coupon:42')).toEqual(PORTS.map(() => null));
    const release = events.find((event) => event.type === 'release')!;
    expect(release.durationMs).toBeGreaterThanOrEqual(30);
    expect(release.detail).toBe('deleted on 5/5 nodes');
    expect(events.find((event) => event.type === 'acquire')!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('lets exactly one of 30 concurrent contenders in at a time', async () => {
    expect(await contend(strategies, 'exclusive', 30)).toEqual({ maxInside: 1, completed: 30, failures: [] });
  });

  it('stays exclusive with one node stopped, and with two', async () => {
    await killNode(4);
    expect(await contend(strategies, 'one-down', 30)).toMatchObject({ maxInside: 1, completed: 30 });
    await killNode(3);
    expect(await contend(strategies, 'two-down', 30)).toMatchObject({ maxInside: 1, completed: 30 });
    await redlock.run('two-down', { leaseMs: 5000, waitMs: 1000 }, async (lock) => {
      expect(await valuesOn([0, 1, 2], 'two-down')).toEqual([lock.owner, lock.owner, lock.owner]);
    });
  });

  it('refuses with three nodes stopped, naming the votes, and leaves nothing on the two it reached', async () => {
    await Promise.all([killNode(0), killNode(2), killNode(4)]);
    const critical = jest.fn();
    const error = await redlock.run('three-down', { leaseMs: 5000, waitMs: 300 }, critical).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LockTimeoutError);
    expect((error as LockTimeoutError).waitedMs).toBeGreaterThanOrEqual(300);
    // The first node, where wake-ups are subscribed, is down: the wait for that subscription is
    // bounded by the time left, not by its own one-second timeout.
    expect((error as LockTimeoutError).waitedMs).toBeLessThan(300 + 20 + 2 * PER_NODE_TIMEOUT_MS + 300);
    expect(critical).not.toHaveBeenCalled();
    const timeout = events.find((event) => event.type === 'timeout')!;
    expect(timeout.detail).toContain('2/5 granted (quorum 3)');
    expect(timeout.detail).toContain(`127.0.0.1:${PORTS[0]}=down`);
    expect(timeout.detail).toContain(`127.0.0.1:${PORTS[1]}=granted`);
    expect(await valuesOn([1, 3], 'three-down')).toEqual([null, null]);
  });

  it('uses a node again once it comes back', async () => {
    await Promise.all([killNode(0), killNode(1), killNode(2)]);
    await expect(
      redlock.run('comeback', { leaseMs: 5000, waitMs: 0 }, () => Promise.resolve('in')),
    ).rejects.toBeInstanceOf(LockTimeoutError);
    await startNode(1);
    // Only three nodes live: the lock can be had only if the restarted one votes.
    const owner = await redlock.run('comeback', { leaseMs: 5000, waitMs: 5000 }, async (lock) => {
      expect(await valuesOn([1, 3, 4], 'comeback')).toEqual([lock.owner, lock.owner, lock.owner]);
      return lock.owner;
    });
    expect(owner).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses while another owner holds a majority, and never deletes its keys', async () => {
    await Promise.all([0, 1, 2].map((i) => probes[i].set(key('foreign'), 'someone-else', 'PX', 10_000)));
    await expect(
      redlock.run('foreign', { leaseMs: 5000, waitMs: 150 }, () => Promise.resolve('in')),
    ).rejects.toBeInstanceOf(LockTimeoutError);
    expect(await valuesOn(live(), 'foreign')).toEqual(['someone-else', 'someone-else', 'someone-else', null, null]);
    expect(events.find((event) => event.type === 'timeout')!.detail).toContain(`127.0.0.1:${PORTS[0]}=taken`);

    await probes[0].del(key('foreign'));
    await expect(redlock.run('foreign', { leaseMs: 5000, waitMs: 150 }, () => Promise.resolve('in'))).resolves.toBe(
      'in',
    );
  });

  it('gives up after waitMs while the holder keeps the lock', async () => {
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const holding = redlock.run('busy', { leaseMs: 5000, waitMs: 0 }, async () => {
      entered();
      await sleep(800);
    });
    await inside;
    const started = Date.now();
    const error = await strategies[1]
      .run('busy', { leaseMs: 5000, waitMs: 200 }, () => Promise.resolve('in'))
      .catch((e: unknown) => e);
    const waited = Date.now() - started;
    await holding;

    expect(error).toBeInstanceOf(LockTimeoutError);
    expect(waited).toBeGreaterThanOrEqual(200);
    // One more attempt at most past the budget, each node call bounded.
    expect(waited).toBeLessThan(200 + 20 + 2 * PER_NODE_TIMEOUT_MS + 300); // slack for a loaded machine
  });

  it('aborts the holder signal when validity runs out, before another can take the lock', async () => {
    const leaseMs = 300;
    let abortedAfterMs = -1;
    let firstAbortedWhenSecondEntered: boolean | undefined;
    let first: HeldLock | undefined;
    let firstIn!: () => void;
    const inside = new Promise<void>((resolve) => (firstIn = resolve));
    const firstRun = redlock.run('validity', { leaseMs, waitMs: 0 }, async (lock) => {
      first = lock;
      firstIn();
      const entered = Date.now();
      await new Promise((done) => lock.signal.addEventListener('abort', done, { once: true }));
      abortedAfterMs = Date.now() - entered;
      await sleep(400); // the holder overstays, as a stalled critical section would
    });
    await inside;
    await strategies[1].run('validity', { leaseMs, waitMs: 2000 }, () => {
      firstAbortedWhenSecondEntered = first!.signal.aborted;
      return Promise.resolve();
    });
    await firstRun;

    // validity = lease − vote time − drift (300 × 0.01 + 2 = 5 ms)
    expect(abortedAfterMs).toBeGreaterThan(leaseMs - 5 - 60);
    expect(abortedAfterMs).toBeLessThan(leaseMs + 150); // slack for a loaded machine
    expect(first!.signal.reason).toBeInstanceOf(LockLostError);
    expect(firstAbortedWhenSecondEntered).toBe(true);
    expect(events.some((event) => event.type === 'lost' && event.owner === first!.owner)).toBe(true);
  });

  it('bounds a frozen node by the per-node timeout, and cleans up the SET it answers late', async () => {
    signalNode(4, 'SIGSTOP');
    try {
      const started = Date.now();
      await redlock.run('frozen', { leaseMs: 5000, waitMs: 0 }, () => Promise.resolve());
      expect(Date.now() - started).toBeLessThan(2 * PER_NODE_TIMEOUT_MS + 400); // slack for a loaded machine
      expect(events.find((event) => event.type === 'release')!.detail).toBe('deleted on 4/5 nodes');
    } finally {
      signalNode(4, 'SIGCONT');
    }
    // The thawed node runs the queued SET NX, then the queued compare-and-delete: no stray lock.
    const deadline = Date.now() + 5000;
    while ((await probes[4].exists(key('frozen'))) !== 0 && Date.now() < deadline) await sleep(10);
    expect(await probes[4].exists(key('frozen'))).toBe(0);
  });

  it('refuses within the per-node bound when three nodes hang', async () => {
    [0, 1, 2].forEach((i) => signalNode(i, 'SIGSTOP'));
    try {
      const started = Date.now();
      await expect(
        redlock.run('hung', { leaseMs: 5000, waitMs: 0 }, () => Promise.resolve('in')),
      ).rejects.toBeInstanceOf(LockTimeoutError);
      expect(Date.now() - started).toBeLessThan(2 * PER_NODE_TIMEOUT_MS + 400); // slack for a loaded machine
      expect(events.find((event) => event.type === 'timeout')!.detail).toContain(`127.0.0.1:${PORTS[2]}=timeout`);
    } finally {
      [0, 1, 2].forEach((i) => signalNode(i, 'SIGCONT'));
    }
  });

  it('hands the lock to the next waiter of its process once the nodes swapped the key: it is never free in between', async () => {
    const [firstOwner, taken, order] = await handedToNext('handoff', 5000, async (lock) => ({
      owner: lock.owner,
      values: await valuesOn(live(), 'handoff'), // swapped before the taker started
    }));

    expect(taken.values).toEqual(PORTS.map(() => taken.owner)); // swapped on every node, with its own lease
    expect(taken.owner).not.toBe(firstOwner);
    expect(order[0]).toBe('taker started');
    for (const type of ['acquire', 'release']) {
      // Each holder's events name the value it holds the lock by.
      expect(events.filter((e) => e.type === type).map((e) => e.owner)).toEqual([firstOwner, taken.owner]);
    }
    expect(events.filter((e) => e.type === 'acquire').map((e) => e.detail)).toEqual([undefined, 'handed off']);
    expect(events.filter((e) => e.type === 'release').map((e) => e.detail)).toEqual([
      'handed off',
      'deleted on 5/5 nodes',
    ]);
    expect(await valuesOn(live(), 'handoff')).toEqual(PORTS.map(() => null));
  });

  it('with the hand-off limit at 0 every holder releases for real', async () => {
    const urls = PORTS.map((port) => `redis://127.0.0.1:${port}`);
    const sink = { emit: (event: LockEvent) => events.push(event) };
    const plain = createRedlockStrategy({ urls, events: sink, perNodeTimeoutMs: PER_NODE_TIMEOUT_MS, handoffLimit: 0 });
    try {
      expect(await contend([plain], 'no-handoff', 10)).toMatchObject({ maxInside: 1, completed: 10, failures: [] });
      const releases = events.filter((e) => e.type === 'release' && e.resource === 'no-handoff');
      // Deleted, never handed off; a fresh strategy's first holder may find a node not yet connected.
      expect(releases).toHaveLength(10);
      for (const release of releases) expect(release.detail).toMatch(/^deleted on [3-5]\/5 nodes$/);
    } finally {
      await plain.close();
    }
  });

  it("never starts a taker on a swap that lost the giver's majority: it takes the lock by its own attempts", async () => {
    const [, taken] = await handedToNext(
      'handoff-lost',
      5000,
      async (lock) => ({
        owner: lock.owner,
        values: await valuesOn(live(), 'handoff-lost'),
        aborted: lock.signal.aborted,
      }),
      () => Promise.all([0, 1, 2].map((i) => probes[i].del(key('handoff-lost')))), // behind the holder's back
    );
    expect(taken.aborted).toBe(false);
    expect(taken.values).toEqual(PORTS.map(() => taken.owner)); // its own majority, every node
    expect(events.filter((e) => e.type === 'acquire').map((e) => e.detail)).toEqual([undefined, undefined]);
    expect(await valuesOn(live(), 'handoff-lost')).toEqual(PORTS.map(() => null)); // nothing of either left
  });

  it('scripts: a hand-off swaps only its own key; a release deletes only its own', async () => {
    const client = createRedlockClient(`redis://127.0.0.1:${PORTS[0]}`, {
      perNodeTimeoutMs: 1000,
      connectTimeoutMs: 1000,
    });
    try {
      if (client.status !== 'ready') await new Promise((ready) => client.once('ready', ready));
      const fence = `${key('lua')}:fence`;
      await probes[0].set(key('lua'), 'a', 'PX', 5000);
      expect(await client.lockHandoff(key('lua'), fence, 'x', 'b', 8000, 'string', '0')).toBe(0);
      expect(await probes[0].get(key('lua'))).toBe('a');
      expect(await client.lockHandoff(key('lua'), fence, 'a', 'b', 8000, 'string', '0')).toBe(1);
      expect(await probes[0].get(key('lua'))).toBe('b');
      expect(await probes[0].pttl(key('lua'))).toBeGreaterThan(5000); // the taker's own lease
      expect(await client.redlockRelease(key('lua'), 'a')).toBe(0);
      expect(await client.redlockRelease(key('lua'), 'b')).toBe(1);
      expect(await probes[0].exists(key('lua'), fence)).toBe(0);
    } finally {
      client.disconnect();
    }
  });
});
