import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { probeClient, testRedisTarget, uniqueResource, within } from '../../../../test/redis/lock-kit';
import { lockKeys, waiterWakeChannel, type LockKeys } from '../lock-keys';
import { createWakeRedis } from '../redis/redis-clients';
import { defineLockCommands } from '../scripts/lua-commands';
import { queueAcquire, queueEntry, type QueueLockKind } from '../verbs/queue-acquire';
import { queueClaim } from '../verbs/queue-claim';
import { queueRelease } from '../verbs/queue-release';
import type { EntryOffer } from './entry-offers';
import { LocalQueue } from './local-queue';
import type { QueuePlan } from './queue-plan';
import { acquireInQueue } from './queue-wait';
import { QUEUE_TIMING } from './queue-timing';
import { WakeSubscriber } from './wake-subscriber';

// One process's queue wait on a real Redis, its holder played by the spec: while a holder of the
// process has the lock, the head offers its entry instead of joining, and the holder's release
// queues it. Sequenced on state: the offer showing up, Redis's queue, the wake-up.
let redis: Redis;
let wake: WakeSubscriber;
const kind: QueueLockKind = { hash: false, fenced: false };
const timing = { ...QUEUE_TIMING, leaseMs: 10_000 };
const TAG = 'proc-a';

beforeAll(() => {
  redis = defineLockCommands(probeClient());
  // A long linger: the spec's second wait must find the channel of the first still subscribed.
  wake = new WakeSubscriber(createWakeRedis(testRedisTarget()), 1000, 10_000);
});
afterAll(async () => {
  await wake.close();
  await redis.quit();
});

const head = { owner: 'head', tag: TAG };

/** The head's plan, as the strategy builds it, on the spec's own connection; `calls` records each call to Redis it makes. */
function headPlan(keys: LockKeys, calls: string[], extra: Partial<QueuePlan>): QueuePlan {
  return {
    lineKey: keys.lock,
    channel: waiterWakeChannel(keys, TAG),
    owner: head.owner,
    kind: 'owner-checked',
    waitMs: 10_000,
    skipLine: false,
    reenter: () => Promise.reject(new Error('not reentrant')),
    attempt: (join) => {
      calls.push(join ? 'join' : 'look');
      return queueAcquire(redis, keys, kind, head, join ? timing : { ...timing, heartbeatMs: 0 });
    },
    claim: () => {
      calls.push('claim');
      return queueClaim(redis, keys, kind, head.owner, timing.leaseMs);
    },
    leave: () => queueRelease(redis, keys, kind, head, timing),
    ...extra,
  };
}

/** Polls the process's offers as its holder would at release time, until the head has offered. */
async function offerTaken(queue: LocalQueue, lineKey: string): Promise<EntryOffer> {
  return within(
    (async () => {
      for (;;) {
        const offer = queue.offers.take(lineKey, 'owner-checked');
        if (offer) return offer;
        await sleep(2);
      }
    })(),
    5000,
    'the head offering its entry',
  );
}

/** Until the head's entry shows in Redis's queue. */
function headQueued(keys: LockKeys): Promise<void> {
  return within(
    (async () => {
      while (!(await redis.lrange(keys.queue, 0, -1)).includes(queueEntry(head))) await sleep(2);
    })(),
    5000,
    'the head queued',
  );
}

it("a head behind a holder of its own process never joins: the holder's release queues it behind the others", async () => {
  const keys = lockKeys(uniqueResource('queue-wait-offer'));
  const holder = { owner: 'holder', tag: TAG };
  const other = { owner: 'other-process', tag: 'proc-b' };
  await queueAcquire(redis, keys, kind, holder, timing); // the holder of this process takes it
  await queueAcquire(redis, keys, kind, other, timing); // another process queues
  const queue = new LocalQueue(0);
  const calls: string[] = [];
  let heldHere = true;
  const waiting = acquireInQueue(queue, wake, headPlan(keys, calls, { heldHere: () => heldHere }));

  const offer = await offerTaken(queue, keys.lock);
  expect(offer.owner).toBe('head');
  expect(await redis.lrange(keys.queue, 0, -1)).toEqual([queueEntry(other)]); // not joined by itself
  const released = await queueRelease(redis, keys, kind, holder, timing, { owner: offer.owner, tag: TAG });
  offer.settled(released.status === 'released');
  heldHere = false;
  queue.releasedHere(keys.lock);
  expect(await redis.get(keys.lock)).toBe('other-process'); // it queued first
  expect(await redis.lrange(keys.queue, 0, -1)).toEqual([queueEntry(head)]);

  await queueRelease(redis, keys, kind, other, timing); // the other process is done: hands to the head
  const attempt = await within(waiting, 5000, 'the head handed the lock');
  expect(attempt).toMatchObject({ acquired: true, fromQueue: true });
  expect(await attempt.confirmation).toBeUndefined(); // its claim found it the owner
  expect(calls).toEqual(['look', 'claim']); // no join, no refresh
  expect(await redis.pttl(keys.lock)).toBeGreaterThan(9000);
  await queueRelease(redis, keys, kind, head, timing);
});

it('a head whose claim comes after its claim lease ran out, and the lock passed on, hears that it lost the lock', async () => {
  const keys = lockKeys(uniqueResource('queue-wait-late-claim'));
  const other = { owner: 'other-process', tag: 'proc-b' };
  await queueAcquire(redis, keys, kind, other, timing);
  const calls: string[] = [];
  const plan = headPlan(keys, calls, {});
  // The claim lands once the lock is someone else's: the lease a release gave the head ran out first.
  const late: QueuePlan = { ...plan, claim: () => redis.set(keys.lock, 'next', 'PX', 1000).then(() => plan.claim()) };
  const waiting = acquireInQueue(new LocalQueue(0), wake, late);
  await headQueued(keys);
  await queueRelease(redis, keys, kind, other, timing); // hands the lock to the head
  const attempt = await within(waiting, 5000, 'the head handed the lock');
  expect(attempt).toMatchObject({ acquired: true, fromQueue: true });
  expect(await attempt.confirmation).toBe('the claim found the lock gone');
  expect(calls.filter((call) => call !== 'join')).toEqual(['look', 'claim']); // a heartbeat may join again meanwhile
  expect(await redis.get(keys.lock)).toBe('next'); // not taken back
  expect(await redis.pttl(keys.lock)).toBeLessThanOrEqual(1000);
});

it('a head that gives up withdraws its offer, and a holder that took it first sees it leave the queue', async () => {
  const keys = lockKeys(uniqueResource('queue-wait-withdraw'));
  const holder = { owner: 'holder', tag: TAG };
  await queueAcquire(redis, keys, kind, holder, timing);
  await queueAcquire(redis, keys, kind, { owner: 'other-process', tag: 'proc-b' }, timing);
  const queue = new LocalQueue(0);
  const controller = new AbortController();
  const plan = headPlan(keys, [], { heldHere: () => true, signal: controller.signal });
  const waiting = acquireInQueue(queue, wake, plan);
  const offer = await offerTaken(queue, keys.lock);
  controller.abort(); // gives up while the holder's release, carrying its entry, is under way
  await queueRelease(redis, keys, kind, holder, timing, { owner: offer.owner, tag: TAG });
  offer.settled(true);
  expect(await within(waiting, 5000, 'the head giving up')).toMatchObject({ acquired: false, aborted: true });
  expect(await redis.lrange(keys.queue, 0, -1)).toEqual([]); // its entry left with it
  expect(await redis.get(keys.lock)).toBe('other-process');
});

it("a head handed the lock keeps its process's channel a moment: the process's next wait joins at once, with no first look", async () => {
  const keys = lockKeys(uniqueResource('queue-wait-linger'));
  const other = { owner: 'other-process', tag: 'proc-b' };
  const channel = waiterWakeChannel(keys, TAG);
  const handedOnce = async (calls: string[]) => {
    await queueAcquire(redis, keys, kind, other, timing); // another process holds the lock
    const waiting = acquireInQueue(new LocalQueue(0), wake, headPlan(keys, calls, {}));
    await headQueued(keys);
    await queueRelease(redis, keys, kind, other, timing); // hands the lock to the head
    expect(await within(waiting, 5000, 'the head handed the lock')).toMatchObject({ acquired: true, fromQueue: true });
    await queueRelease(redis, keys, kind, head, timing);
  };
  const first: string[] = [];
  await handedOnce(first);
  expect(first).toEqual(['look', 'join', 'claim']);
  expect(wake.isListening(channel)).toBe(true); // nobody else in line, yet still subscribed
  const second: string[] = [];
  await handedOnce(second);
  expect(second).toEqual(['join', 'claim']);
});
