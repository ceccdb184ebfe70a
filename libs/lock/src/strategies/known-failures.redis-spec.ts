import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import {
  deferred,
  freezeEventLoop,
  OverlapCounter,
  uniqueResource,
  untilSomeoneWaits,
  within,
  type TestReplica,
} from '../../../../test/redis/lock-kit';
import { holdInside, replicasForEachTest } from '../../../../test/redis/replica-fixtures';
import { runInFlow } from '../flow-context';
import { lockKeys } from '../lock-keys';
import { LockLostError, LockTimeoutError } from '../lock.errors';
import type { HeldLock } from '../lock-strategy';

// Each strategy's known failure, made to happen on purpose, and the next strategy's fix holding.
// Two replicas (own connections, lines, renewer) play two processes.
jest.setTimeout(30_000);

let a: TestReplica;
let b: TestReplica;
let probe: Redis;

replicasForEachTest(
  ['api-1', 'api-2'],
  (started) =>
    ({
      replicas: [a, b],
      probe,
    } = started),
);

describe('setnx: a holder that crashes', () => {
  it('leaves a key without TTL, so every later acquire times out', async () => {
    const resource = uniqueResource('setnx-crash');
    const crashed = await holdInside(a.strategy('setnx'), resource, { leaseMs: 100, waitMs: 100 });
    await a.close(); // the process is gone: it will never DEL
    expect(await probe.pttl(lockKeys(resource).lock)).toBe(-1);
    for (let i = 0; i < 2; i++) {
      await expect(
        b.strategy('setnx').run(resource, { leaseMs: 100, waitMs: 250 }, () => Promise.resolve('in')),
      ).rejects.toBeInstanceOf(LockTimeoutError);
    }
    crashed.leave();
    await crashed.run;
  });

  it("set-nx-px fixes it: the crashed holder's lock expires after its lease", async () => {
    const resource = uniqueResource('set-nx-px-crash');
    const crashed = await holdInside(a.strategy('set-nx-px'), resource, { leaseMs: 200, waitMs: 100 });
    await a.close();
    await expect(
      b.strategy('set-nx-px').run(resource, { leaseMs: 200, waitMs: 2000 }, () => Promise.resolve('in')),
    ).resolves.toBe('in');
    crashed.leave();
    await crashed.run;
  });
});

/**
 * A holder slower than its lease: `a` acquires, stalls (async) until `b` has got in after the
 * lease ran out, then finishes and releases. Returns what happened.
 */
async function slowHolder(name: string, leaseMs = 150) {
  const resource = uniqueResource(`slow-${name}`);
  const overlap = new OverlapCounter();
  const bEntered = deferred<HeldLock>();
  const bMayLeave = deferred();
  let aLock!: HeldLock;
  const bRun = deferred<Promise<void>>();
  const aRun = a.strategy(name).run(resource, { leaseMs, waitMs: 1000 }, async (lock) => {
    aLock = lock;
    overlap.enter();
    // Another request (its own flow) on another replica.
    bRun.resolve(
      runInFlow(() =>
        b.strategy(name).run(resource, { leaseMs: 10_000, waitMs: 5000 }, async (lock) => {
          overlap.enter();
          bEntered.resolve(lock);
          await bMayLeave.promise;
          overlap.leave();
        }),
      ),
    );
    await within(bEntered.promise, 5000, 'the second holder getting in');
    overlap.leave();
  });
  try {
    await aRun;
    const bLock = await bEntered.promise;
    const bKind = await probe.type(lockKeys(resource).lock);
    const afterFirstRelease = await holderIn(resource, bKind);
    return { resource, overlap, aLock, bLock, afterFirstRelease, bKind };
  } finally {
    bMayLeave.resolve();
    await bRun.promise.then((run) => run);
  }
}

describe('holder slower than its fixed lease', () => {
  it("set-nx-px: two holders overlap, and the first one's release deletes the second one's lock", async () => {
    const { resource, overlap, bLock, afterFirstRelease } = await slowHolder('set-nx-px');
    expect(overlap.max).toBe(2);
    const [foreign] = a.events.of('foreign-delete', resource);
    expect(foreign?.detail).toBe(bLock.owner);
    expect(afterFirstRelease).toBeNull(); // b is still inside, unprotected
    expect(b.events.of('lost', resource)).toHaveLength(1); // b found nothing to release
  });

  it('owner-checked: no foreign delete any more, but still two holders', async () => {
    const { resource, overlap, bLock, afterFirstRelease } = await slowHolder('owner-checked');
    expect(overlap.max).toBe(2);
    expect(a.events.of('foreign-delete', resource)).toHaveLength(0);
    expect(a.events.of('release-refused', resource)).toHaveLength(1);
    expect(afterFirstRelease).toBe(bLock.owner); // b's lock survived a's release
    expect(b.events.of('release', resource)).toHaveLength(1);
  });

  it('reentrant: the same, its lease is just as fixed', async () => {
    const { resource, overlap, bKind, bLock, afterFirstRelease } = await slowHolder('reentrant');
    expect(overlap.max).toBe(2);
    expect(bKind).toBe('hash');
    expect(afterFirstRelease).toBe(bLock.owner);
    expect(a.events.of('release-refused', resource)).toHaveLength(1);
  });

  it('fenced: still two holders, but the late one carries the larger token', async () => {
    const { overlap, aLock, bLock } = await slowHolder('fenced');
    expect(overlap.max).toBe(2);
    expect(await bLock.fenceToken).toBeGreaterThan((await aLock.fenceToken)!);
  });
});

describe('nested acquire by the same flow', () => {
  it('owner-checked is not reentrant: the inner acquire waits for itself and times out', async () => {
    const resource = uniqueResource('nested-owner');
    const strategy = a.strategy('owner-checked');
    const outcome = await strategy.run(resource, { leaseMs: 5000, waitMs: 1000 }, () =>
      strategy
        .run(resource, { leaseMs: 5000, waitMs: 200 }, () => Promise.resolve('inner ran'))
        .catch((e: unknown) => e),
    );
    expect(outcome).toBeInstanceOf(LockTimeoutError);
  });

  it.each(['reentrant', 'watchdog'])('%s lets the flow in again, counting holds', async (name) => {
    const resource = uniqueResource(`nested-${name}`);
    const { lock } = lockKeys(resource);
    const strategy = a.strategy(name);
    let countInside: string | null = null;
    let countAfterInner: string | null = null;
    await strategy.run(resource, { leaseMs: 5000, waitMs: 1000 }, async (outer) => {
      await strategy.run(resource, { leaseMs: 5000, waitMs: 200 }, async (inner) => {
        expect(inner.owner).toBe(outer.owner);
        expect(inner.owner).toMatch(/^api-1:/);
        countInside = await probe.hget(lock, outer.owner);
      });
      countAfterInner = await probe.hget(lock, outer.owner);
    });
    expect(countInside).toBe('2');
    expect(countAfterInner).toBe('1');
    expect(await probe.exists(lock)).toBe(0);
  });
});

describe('watchdog', () => {
  it('an async stall past the lease keeps the lock (renewals), so nobody overlaps', async () => {
    const resource = uniqueResource('watchdog-pause');
    const leaseMs = 150;
    const overlap = new OverlapCounter();
    let aLeftAt = 0;
    const holding = deferred();
    const aRun = a.strategy('watchdog').run(resource, { leaseMs, waitMs: 1000 }, async (lock) => {
      overlap.enter();
      holding.resolve();
      await sleep(4 * leaseMs); // the slow downstream call: timers, the renewer's included, still run
      expect(lock.signal.aborted).toBe(false);
      aLeftAt = Date.now();
      overlap.leave();
    });
    await holding.promise;
    const bEnteredAt = await b.strategy('watchdog').run(resource, { leaseMs, waitMs: 5000 }, () => {
      overlap.enter();
      overlap.leave();
      return Promise.resolve(Date.now());
    });
    await aRun;
    expect(overlap.max).toBe(1);
    expect(bEnteredAt).toBeGreaterThanOrEqual(aLeftAt);
    expect(a.events.of('renew', resource).length).toBeGreaterThanOrEqual(3);
    expect(a.events.of('lost', resource)).toHaveLength(0);
  });

  it('a synchronous freeze past the lease stops the renewer too: the lock expires, another holder gets in, the frozen one is told afterwards', async () => {
    const resource = uniqueResource('watchdog-freeze');
    const leaseMs = 200;
    const overlap = new OverlapCounter();
    const bEntered = deferred();
    const bMayLeave = deferred();
    const holding = deferred();
    let frozeUntil = 0;
    let abortedAt = 0;
    let reason: unknown;
    const aRun = a.strategy('watchdog').run(resource, { leaseMs, waitMs: 1000 }, async (lock) => {
      overlap.enter();
      lock.signal.addEventListener('abort', () => {
        abortedAt = Date.now();
        reason = lock.signal.reason;
      });
      holding.resolve();
      await untilSomeoneWaits(probe, resource); // b is asleep, waiting for us
      freezeEventLoop(2.5 * leaseMs); // nothing runs: no renewal, the lease runs out in Redis
      frozeUntil = Date.now();
      await within(bEntered.promise, 5000, 'b getting in after the freeze');
      await within(
        new Promise((r) => (lock.signal.aborted ? r(0) : lock.signal.addEventListener('abort', r))),
        5000,
        'the abort',
      );
      overlap.leave();
    });
    await holding.promise;
    const bRun = b.strategy('watchdog').run(resource, { leaseMs, waitMs: 5000 }, async () => {
      overlap.enter();
      bEntered.resolve();
      await bMayLeave.promise;
      overlap.leave();
    });
    await aRun;
    bMayLeave.resolve();
    await bRun;
    expect(overlap.max).toBe(2);
    expect(abortedAt).toBeGreaterThanOrEqual(frozeUntil);
    expect(reason).toBeInstanceOf(LockLostError);
    expect(a.events.of('lost', resource)).toHaveLength(1);
  });

  it('no renewal outlives the release', async () => {
    const resource = uniqueResource('watchdog-release');
    const leaseMs = 300; // renewals every 100 ms: on time even on a loaded machine
    let renewalId = '';
    await a.strategy('watchdog').run(resource, { leaseMs, waitMs: 1000 }, async (lock) => {
      renewalId = `${lockKeys(resource).lock}\n${lock.owner}`;
      await within(a.events.next('renew', resource), 5000, 'a first renewal');
      await within(a.events.next('renew', resource), 5000, 'a second renewal');
      expect(a.runtime.isRenewing(renewalId)).toBe(true);
    });
    const renewalsAtRelease = a.events.of('renew', resource).length;
    expect(renewalsAtRelease).toBeGreaterThanOrEqual(2);
    expect(a.runtime.isRenewing(renewalId)).toBe(false);
    // Someone else takes the lock right away; our renewer must not touch it any more.
    await b.strategy('reentrant').run(resource, { leaseMs, waitMs: 1000 }, () => sleep(3 * leaseMs));
    expect(a.events.of('renew', resource)).toHaveLength(renewalsAtRelease);
    expect(a.events.of('lost', resource)).toHaveLength(0);
  });
});

describe('fenced', () => {
  it('hands out strictly increasing tokens, in the order holders get in', async () => {
    const resource = uniqueResource('fence-order');
    const tokens: number[] = [];
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        [a, b][i % 2].strategy('fenced').run(resource, { leaseMs: 5000, waitMs: 10_000 }, async (lock) => {
          tokens.push((await lock.fenceToken)!);
          await sleep(1);
        }),
      ),
    );
    expect(tokens).toHaveLength(30);
    for (let i = 1; i < tokens.length; i++) expect(tokens[i]).toBeGreaterThan(tokens[i - 1]);
  });
});

/** Who holds the lock now, read from Redis: the string's value or the hash's one field. */
async function holderIn(resource: string, kind: string): Promise<string | null> {
  const { lock } = lockKeys(resource);
  if (kind === 'string') return probe.get(lock);
  if (kind === 'hash') return Object.keys(await probe.hgetall(lock))[0] ?? null;
  return null;
}
