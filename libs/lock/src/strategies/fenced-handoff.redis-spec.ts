import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { RunningChild } from '../../../../tools/stack/servers/child';
import { deferred, RecordingSink, uniqueResource, within } from '../../../../test/redis/lock-kit';
import { holdInside } from '../../../../test/redis/replica-fixtures';
import { startPrivateRedis, testPort } from '../../../../test/redis/private-redis';
import { lockKeys } from '../lock-keys';
import { LockRuntime } from '../lock-runtime';
import { createLockStrategies } from '../lock-strategies';
import { LockLostError } from '../lock.errors';
import type { LockStrategy } from '../lock-strategy';

// A fenced holder hands its lock to the next waiter of its process without waiting for the
// hand-off script: the taker starts at once, and its token is the one that script draws along
// with its owner check. A Redis of this spec's own, since it pauses the server's writes.
const PORT = testPort(26605);
const PENDING = Symbol('pending');

let server: RunningChild;
let runtime: LockRuntime;
let events: RecordingSink;
let fenced: LockStrategy;
let probe: Redis;

beforeAll(async () => {
  server = await startPrivateRedis(PORT);
  probe = new Redis(PORT, '127.0.0.1');
});
beforeEach(() => {
  events = new RecordingSink();
  runtime = LockRuntime.connect({ redisUrl: `redis://127.0.0.1:${PORT}`, replicaId: 'api-1' });
  fenced = createLockStrategies(runtime, events).find((s) => s.name === 'fenced')!;
});
afterEach(() => runtime.close());
afterAll(async () => {
  await probe.quit();
  await server.stop();
});

/** Where a holder's token stands right now: the number, PENDING, or the refusal. */
const settled = (token: Promise<number> | undefined) =>
  Promise.race([token?.catch((error: unknown) => error), sleep(0).then(() => PENDING)]);

/**
 * The head of the line is open to a hand-off and has asked Redis once, then subscribed to its
 * wake-ups: from here it waits for the holder next door, with no write of its own to Redis.
 */
async function untilHeadWaits(lock: string): Promise<void> {
  const subscribed = async () => ((await probe.call('PUBSUB', 'SHARDCHANNELS')) as string[]).length > 0;
  while (!runtime.handOffSlot(lock, 'fenced') || !(await subscribed())) await sleep(1);
}

it('the taker starts before the hand-off script lands, and gets the token that script draws', async () => {
  const resource = uniqueResource('fenced-early');
  const { lock, fence } = lockKeys(resource);
  let giver = { owner: '', token: 0 };
  const first = await holdInside(fenced, resource, { leaseMs: 5000, waitMs: 1000 }, (held) => {
    void held.fenceToken!.then((token) => (giver = { owner: held.owner, token }));
  });
  const started = deferred<{ owner: string | null; token: unknown }>();
  const taker = fenced.run(resource, { leaseMs: 5000, waitMs: 5000 }, async (held) => {
    started.resolve({ owner: await probe.get(lock), token: await settled(held.fenceToken) });
    return held.fenceToken;
  });
  await untilHeadWaits(lock);
  // Every script (a write) waits until the unpause; reads still answer.
  await probe.call('CLIENT', 'PAUSE', '10000', 'WRITE');
  try {
    first.leave();
    await within(first.run, 5000, "the giver's release, which does not wait for its script");
    const seen = await within(started.promise, 5000, 'the taker starting while its script waits');
    expect(seen).toEqual({ owner: giver.owner, token: PENDING });
  } finally {
    await probe.call('CLIENT', 'UNPAUSE');
  }
  expect(await taker).toBe(giver.token + 1);
  expect(await probe.get(fence)).toBe(String(giver.token + 1));
  expect(events.of('lost', resource)).toEqual([]);
});

it('a taker whose hand-off script found the lock gone gets no token: awaiting it rejects', async () => {
  const resource = uniqueResource('fenced-refused');
  const { lock, fence } = lockKeys(resource);
  const first = await holdInside(fenced, resource, { leaseMs: 5000, waitMs: 1000 });
  const taker = fenced.run(resource, { leaseMs: 5000, waitMs: 5000 }, async (held) => {
    const refusal: unknown = await held.fenceToken!.catch((error: unknown) => error);
    const abort = new Promise((r) => (held.signal.aborted ? r(0) : held.signal.addEventListener('abort', r)));
    await within(abort, 5000, "the taker's signal aborted as well");
    return refusal;
  });
  await untilHeadWaits(lock);
  // Another owner's key, as after a lease that ran out and a foreign acquire.
  await probe.set(lock, 'someone-else', 'PX', 10_000);
  const counter = await probe.get(fence);
  first.leave();
  await first.run;
  expect(await taker).toBeInstanceOf(LockLostError);
  expect(await probe.get(fence)).toBe(counter); // the refused script drew nothing
  expect(events.of('lost', resource).map((e) => e.detail)).toEqual(['the hand-off found the lock gone']);
});

it("near the end of the giver's lease the taker waits for the script: its token is known when it starts", async () => {
  const resource = uniqueResource('fenced-late');
  let giverToken = 0;
  // A lease no longer than the hand-off margin (100 ms): every hand-off of it waits for its script.
  const first = await holdInside(fenced, resource, { leaseMs: 100, waitMs: 1000 }, (held) => {
    void held.fenceToken!.then((token) => (giverToken = token));
  });
  const taker = fenced.run(resource, { leaseMs: 5000, waitMs: 5000 }, (held) => settled(held.fenceToken));
  await untilHeadWaits(lockKeys(resource).lock);
  first.leave();
  await first.run;
  expect(await taker).toBe(giverToken + 1);
});
