import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import {
  deferred,
  OverlapCounter,
  probeClient,
  QUEUED_STRATEGIES,
  REDIS_STRATEGIES,
  releaseAs,
  startReplica,
  uniqueResource,
  untilSomeoneWaits,
  type TestReplica,
} from '../../../../test/redis/lock-kit';
import { holdInside } from '../../../../test/redis/replica-fixtures';
import { lockKeys } from '../lock-keys';
import { defineLockCommands } from '../scripts/lua-commands';
import { LockTimeoutError } from '../lock.errors';
import { RETRY_MS } from './front-in-redis';
import type { ReleaseStatus } from '../verbs/attempt';

// One contract, every Redis strategy, real Redis. Three replicas (own connections, own local
// lines) stand for three processes, so exclusion is Redis's doing, not the local line's.
jest.setTimeout(30_000);

/** What a release by someone who is not the holder does. */
const foreignRelease: Record<(typeof REDIS_STRATEGIES)[number], ReleaseStatus> = {
  setnx: 'released', // unchecked DEL: the holder's lock is gone
  'set-nx-px': 'foreign-delete', // unchecked too, but GETDEL shows whose lock it deleted
  'owner-checked': 'not-held',
  reentrant: 'not-held',
  watchdog: 'not-held',
  fenced: 'not-held',
};

const QUEUED = new Set<string>(QUEUED_STRATEGIES);
let replicas: TestReplica[];
let probe: Redis;

beforeEach(() => {
  replicas = ['api-1', 'api-2', 'api-3'].map((id) => startReplica(id));
  probe = defineLockCommands(probeClient()); // the kit's releaseAs runs the lock scripts on it
});
afterEach(async () => {
  await Promise.all(replicas.map((r) => r.close()));
  await probe.quit();
});

describe.each(REDIS_STRATEGIES)('%s: lock contract', (name) => {
  it('lets exactly one of 50 concurrent contenders (over three replicas) in at a time', async () => {
    const resource = uniqueResource(`exclusion-${name}`);
    const overlap = new OverlapCounter();
    const runs = Array.from({ length: 50 }, (_, i) =>
      replicas[i % 3].strategy(name).run(resource, { leaseMs: 10_000, waitMs: 20_000 }, async () => {
        overlap.enter();
        await sleep(1);
        overlap.leave();
      }),
    );
    await Promise.all(runs);
    expect(overlap.entries).toBe(50);
    expect(overlap.max).toBe(1);
    expect(await probe.exists(lockKeys(resource).lock)).toBe(0);
  });

  it(`a release by a non-owner ends as '${foreignRelease[name]}'`, async () => {
    const resource = uniqueResource(`foreign-${name}`);
    const { lock } = lockKeys(resource);
    await replicas[0].strategy(name).run(resource, { leaseMs: 5000, waitMs: 1000 }, async () => {
      const outcome = await releaseAs(probe, name, resource, 'api-2:intruder');
      expect(outcome.status).toBe(foreignRelease[name]);
      expect(await probe.exists(lock)).toBe(foreignRelease[name] === 'not-held' ? 1 : 0);
    });
  });

  it('a holder that abandons its lock blocks others only as long as the strategy allows', async () => {
    const resource = uniqueResource(`expiry-${name}`);
    const leaseMs = 300;
    const abandoned = deferred();
    const holding = deferred();
    // Before the holder's SET is sent: its lease cannot end sooner than started + leaseMs, however
    // long the answer then takes to reach us. And once the holder is in, its SET has landed: the
    // lease ends by heldAt + leaseMs at the latest, however long the acquire took.
    const started = Date.now();
    let heldAt = 0;
    const holder = replicas[0].strategy(name).run(resource, { leaseMs, waitMs: 1000 }, async () => {
      heldAt = Date.now();
      holding.resolve();
      await abandoned.promise;
    });
    await holding.promise;
    // A wait budget of 10 leases: a waiter that notices the expiry gets in within a few leases even on
    // a busy machine, one that does not times out.
    const next = () =>
      replicas[1].strategy(name).run(resource, { leaseMs, waitMs: 10 * leaseMs }, () => Promise.resolve(Date.now()));
    try {
      if (name === 'setnx') {
        expect(await probe.pttl(lockKeys(resource).lock)).toBe(-1); // no expiry at all
        await expect(next()).rejects.toBeInstanceOf(LockTimeoutError);
      } else if (name === 'watchdog') {
        await expect(next()).rejects.toBeInstanceOf(LockTimeoutError); // kept alive past 10 leases
        await replicas[0].close(); // the holder's process dies: its renewer stops
        expect((await next()) - started).toBeGreaterThanOrEqual(10 * leaseMs);
      } else {
        const gotInAt = await next();
        expect(gotInAt - started).toBeGreaterThanOrEqual(leaseMs - 2); // Redis's clock and ours round apart
        expect(gotInAt - heldAt).toBeLessThan(3 * leaseMs);
      }
    } finally {
      abandoned.resolve();
      await holder;
    }
  });

  it("gives up after waitMs with LockTimeoutError and the holder's remaining TTL", async () => {
    const resource = uniqueResource(`timeout-${name}`);
    const done = deferred();
    const holding = deferred();
    const holder = replicas[0].strategy(name).run(resource, { leaseMs: 5000, waitMs: 1000 }, async () => {
      holding.resolve();
      await done.promise;
    });
    await holding.promise;
    const started = Date.now();
    // Two waiters on one replica: the front waits in Redis, the second in its line.
    const errors = await Promise.all(
      [0, 1].map(() =>
        replicas[1]
          .strategy(name)
          .run(resource, { leaseMs: 5000, waitMs: 150 }, () => Promise.resolve('got in'))
          .catch((e: unknown) => e),
      ),
    );
    const waited = Date.now() - started;
    done.resolve();
    await holder;
    for (const error of errors) {
      expect(error).toBeInstanceOf(LockTimeoutError);
      const timeout = error as LockTimeoutError;
      expect(timeout.code).toBe('LOCK.TIMEOUT');
      if (name === 'setnx') expect(timeout.holderTtlMs).toBeUndefined();
      else expect(timeout.holderTtlMs).toBeGreaterThan(4000);
    }
    expect(waited).toBeGreaterThanOrEqual(150);
    expect(waited).toBeLessThan(600);
  });

  it("lets a waiter in within a few ms of the release, not after the holder's TTL", async () => {
    const resource = uniqueResource(`wake-${name}`);
    const release = deferred();
    let releasedAt = 0;
    const holding = deferred();
    const holder = replicas[0].strategy(name).run(resource, { leaseMs: 10_000, waitMs: 1000 }, async () => {
      holding.resolve();
      await release.promise;
      releasedAt = Date.now();
    });
    await holding.promise;
    const waiter = replicas[1]
      .strategy(name)
      .run(resource, { leaseMs: 10_000, waitMs: 8000 }, () => Promise.resolve(Date.now()));
    // A queued waiter is woken by the release; setnx's and set-nx-px's retries every RETRY_MS.
    if (QUEUED.has(name)) await untilSomeoneWaits(probe, resource);
    else await sleep(2 * RETRY_MS); // its first attempts have failed by now
    release.resolve();
    await holder;
    const latencyMs = (await waiter) - releasedAt;
    expect(latencyMs).toBeLessThan(50); // the fallback would be the 10 s TTL
  });

  it('spends the wait budget once: behind a waiter of its own process, it gets in when the lock comes free in time', async () => {
    const resource = uniqueResource(`budget-${name}`);
    const holder = await holdInside(replicas[0].strategy(name), resource, { leaseMs: 10_000, waitMs: 1000 });
    const waiter = (waitMs: number) =>
      replicas[1]
        .strategy(name)
        .run(resource, { leaseMs: 10_000, waitMs }, () => Promise.resolve(Date.now()))
        .catch((e: unknown) => e);
    const started = Date.now();
    const first = waiter(1000);
    const second = waiter(2200); // behind the first in its process's line
    let freeingAt = 0;
    try {
      expect(await first).toBeInstanceOf(LockTimeoutError);
      // The second has waited about 1 s of its 2.2 s: the lock comes free well inside what is left.
      await sleep(400);
    } finally {
      freeingAt = Date.now(); // the lock is free only after this
      holder.leave();
      await holder.run;
    }
    expect(freeingAt - started).toBeLessThan(2000); // else this machine was too slow to tell
    const gotInAt = await second;
    expect(gotInAt).not.toBeInstanceOf(Error);
    expect(gotInAt as number).toBeGreaterThanOrEqual(freeingAt);
  });
});
