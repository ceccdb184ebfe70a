import type { Redis } from 'ioredis';
import { uniqueResource } from '../../../../test/redis/lock-kit';
import { scriptClients } from '../../../../test/redis/script-clients';
import { lockKeys, waiterWakeChannel, type LockKeys } from '../lock-keys';
import { queueAcquire, queueEntry, type QueueLockKind, type QueueWaiter } from '../verbs/queue-acquire';
import { queueClaim } from '../verbs/queue-claim';
import { queueRelease } from '../verbs/queue-release';

// queue-acquire.lua, queue-claim.lua and queue-release.lua alone against real Redis, read back behind their back.
let redis: Redis;
let keys: LockKeys;
const published = scriptClients('queue-lua', (test) => ({ redis, keys } = test));
const plain: QueueLockKind = { hash: false, fenced: false };
const timing = { leaseMs: 10_000, heartbeatMs: 1000, claimMs: 1000 };
const waiter = (owner: string, tag = `t-${owner}`): QueueWaiter => ({ owner, tag });

describe('queue-acquire.lua', () => {
  it('takes a free lock, else queues the caller in arrival order with a heartbeat deadline', async () => {
    expect(await queueAcquire(redis, keys, plain, waiter('a'), timing)).toMatchObject({ acquired: true });
    const b = await queueAcquire(redis, keys, plain, waiter('b'), timing);
    await queueAcquire(redis, keys, plain, waiter('c'), timing);
    await queueAcquire(redis, keys, plain, waiter('b'), timing); // a refresh keeps b's place
    expect(b.acquired).toBe(false);
    expect(b.holderTtlMs).toBeGreaterThan(9000);
    expect(await redis.lrange(keys.queue, 0, -1)).toEqual([queueEntry(waiter('b')), queueEntry(waiter('c'))]);
    expect(await redis.zcard(keys.queueDeadlines)).toBe(2);
    expect(await redis.pttl(keys.queue)).toBeGreaterThan(0); // the queue dies with its last waiter
  });

  it('does not let a newcomer take a free lock past a fresh waiter: it hands the lock to that waiter', async () => {
    await redis.set(keys.lock, 'holder', 'PX', 10_000);
    await queueAcquire(redis, keys, plain, waiter('b'), timing);
    await redis.del(keys.lock); // the holder's lease ran out without a release
    const messages = await published(waiterWakeChannel(keys, 't-b'), async () => {
      const c = await queueAcquire(redis, keys, plain, waiter('c'), timing);
      expect(c).toEqual({ acquired: false, holderTtlMs: 1000 });
    });
    expect(messages).toEqual(['b']);
    expect(await redis.get(keys.lock)).toBe('b');
    expect(await redis.pttl(keys.lock)).toBeLessThanOrEqual(1000); // only the claim lease
    const claim = await queueAcquire(redis, keys, plain, waiter('b'), timing);
    expect(claim).toMatchObject({ acquired: true, fromQueue: true });
    expect(await redis.pttl(keys.lock)).toBeGreaterThan(9000);
  });

  it('with a heartbeat of 0 makes one attempt and never queues', async () => {
    await redis.set(keys.lock, 'holder', 'PX', 10_000);
    const once = await queueAcquire(redis, keys, plain, waiter('b'), { ...timing, heartbeatMs: 0 });
    expect(once.acquired).toBe(false);
    expect(await redis.exists(keys.queue)).toBe(0);
  });
});

describe('queue-release.lua', () => {
  it('hands the lock to the first fresh waiter and wakes it alone, skipping a dead one', async () => {
    await queueAcquire(redis, keys, plain, waiter('a'), timing);
    await queueAcquire(redis, keys, plain, waiter('dead'), timing);
    await queueAcquire(redis, keys, plain, waiter('b'), timing);
    await redis.zadd(keys.queueDeadlines, 1, queueEntry(waiter('dead'))); // its heartbeat ran out long ago
    let outcome;
    const toB = await published(waiterWakeChannel(keys, 't-b'), async () => {
      const toDead = await published(waiterWakeChannel(keys, 't-dead'), async () => {
        outcome = await queueRelease(redis, keys, plain, waiter('a'), timing);
      });
      expect(toDead).toEqual([]);
    });
    expect(outcome).toEqual({ status: 'released', detail: 'handed to the queue' });
    expect(toB).toEqual(['b']);
    expect(await redis.get(keys.lock)).toBe('b');
    expect(await redis.llen(keys.queue)).toBe(0);
  });

  it('deletes the lock when nobody waits, and refuses a release that is not the holder', async () => {
    await queueAcquire(redis, keys, plain, waiter('a'), timing);
    expect((await queueRelease(redis, keys, plain, waiter('x'), timing)).status).toBe('not-held');
    expect(await queueRelease(redis, keys, plain, waiter('a'), timing)).toEqual({ status: 'released' });
    expect(await redis.exists(keys.lock)).toBe(0);
  });

  it('refuses a release of the other kind of lock, whoever its owner, and changes nothing', async () => {
    const hash: QueueLockKind = { hash: true, fenced: false };
    await queueAcquire(redis, keys, hash, waiter('a'), timing); // a reentrant hold: a hash naming a
    expect((await queueRelease(redis, keys, plain, waiter('a'), timing)).status).toBe('not-held');
    expect(await redis.hgetall(keys.lock)).toEqual({ a: '1' });
    await redis.del(keys.lock);
    await queueAcquire(redis, keys, plain, waiter('b'), timing); // a string naming b
    expect((await queueRelease(redis, keys, hash, waiter('b'), timing)).status).toBe('not-held');
    expect(await redis.get(keys.lock)).toBe('b');
  });

  it("queues the holder's next waiter at the back in the same call, only once the lock is let go", async () => {
    const hash: QueueLockKind = { hash: true, fenced: false };
    await queueAcquire(redis, keys, hash, waiter('a'), timing);
    await redis.hincrby(keys.lock, 'a', 1); // a re-entered
    await queueAcquire(redis, keys, hash, waiter('b'), timing);
    const next = waiter('a2', 't-a');
    expect((await queueRelease(redis, keys, hash, waiter('x'), timing, next)).status).toBe('not-held');
    expect((await queueRelease(redis, keys, hash, waiter('a'), timing, next)).status).toBe('still-held');
    expect(await redis.lrange(keys.queue, 0, -1)).toEqual([queueEntry(waiter('b'))]); // not yet: a still holds
    expect((await queueRelease(redis, keys, hash, waiter('a'), timing, next)).detail).toBe('handed to the queue');
    expect(await redis.hgetall(keys.lock)).toEqual({ b: '1' }); // b arrived first
    expect(await redis.lrange(keys.queue, 0, -1)).toEqual([queueEntry(next)]);
    const deadline = Number(await redis.zscore(keys.queueDeadlines, queueEntry(next)));
    const [seconds, micros] = await redis.time();
    expect(deadline - (Number(seconds) * 1000 + Math.floor(Number(micros) / 1000))).toBeGreaterThan(900);

    const toNext = await published(waiterWakeChannel(keys, 't-a'), () =>
      queueRelease(redis, keys, hash, waiter('b'), timing, waiter('b2', 't-b')),
    );
    expect(toNext).toEqual(['a2']); // a2 waited longer than b's own next waiter
    expect(await redis.lrange(keys.queue, 0, -1)).toEqual([queueEntry(waiter('b2', 't-b'))]);
  });

  it('as a leave, drops the entry, and passes on a lock handed to the leaver meanwhile', async () => {
    await queueAcquire(redis, keys, plain, waiter('a'), timing);
    await queueAcquire(redis, keys, plain, waiter('b'), timing);
    await queueAcquire(redis, keys, plain, waiter('c'), timing);
    await queueRelease(redis, keys, plain, waiter('a'), timing); // handed to b, who gives up before claiming
    expect((await queueRelease(redis, keys, plain, waiter('b'), timing)).status).toBe('released');
    expect(await redis.get(keys.lock)).toBe('c');
  });

  it('hash kind: a nested hold stays, the last one hands over; fenced: the taker gets the next token in its message', async () => {
    const hash: QueueLockKind = { hash: true, fenced: false };
    await queueAcquire(redis, keys, hash, waiter('a'), timing);
    await redis.hincrby(keys.lock, 'a', 1); // a re-entered
    await queueAcquire(redis, keys, hash, waiter('b'), timing);
    expect((await queueRelease(redis, keys, hash, waiter('a'), timing)).status).toBe('still-held');
    expect((await queueRelease(redis, keys, hash, waiter('a'), timing)).detail).toBe('handed to the queue');
    expect(await redis.hgetall(keys.lock)).toEqual({ b: '1' });

    const fencedKeys = lockKeys(uniqueResource('queue-lua-fenced'));
    const fenced: QueueLockKind = { hash: false, fenced: true };
    const first = await queueAcquire(redis, fencedKeys, fenced, waiter('a'), timing);
    await queueAcquire(redis, fencedKeys, fenced, waiter('b'), timing);
    const messages = await published(waiterWakeChannel(fencedKeys, 't-b'), () =>
      queueRelease(redis, fencedKeys, fenced, waiter('a'), timing),
    );
    expect(messages).toEqual([`b ${first.fenceToken! + 1}`]); // the exact token, never in e-notation
  });
});

describe('fencing tokens across kinds of lock (two strategies on one resource)', () => {
  const fenced: QueueLockKind = { hash: false, fenced: true };

  it("a release that does not fence still draws the next waiter's token once the lock has a counter", async () => {
    await redis.set(keys.fence, '41');
    await queueAcquire(redis, keys, plain, waiter('a'), timing);
    await queueAcquire(redis, keys, fenced, waiter('b'), timing);
    const messages = await published(waiterWakeChannel(keys, 't-b'), () =>
      queueRelease(redis, keys, plain, waiter('a'), timing),
    );
    expect(messages).toEqual(['b 42']);
    expect(await queueAcquire(redis, keys, fenced, waiter('b'), timing)).toMatchObject({
      acquired: true,
      fenceToken: 42,
    });
    expect(await redis.get(keys.fence)).toBe('42'); // the claim took the token drawn for it, and drew none
  });

  it('a fenced claim draws its own token when it was handed the lock before the lock had a counter', async () => {
    await queueAcquire(redis, keys, plain, waiter('a'), timing);
    await queueAcquire(redis, keys, fenced, waiter('b'), timing);
    const messages = await published(waiterWakeChannel(keys, 't-b'), () =>
      queueRelease(redis, keys, plain, waiter('a'), timing),
    );
    expect(messages).toEqual(['b']); // nothing to draw from yet
    const claim = await queueAcquire(redis, keys, fenced, waiter('b'), timing);
    expect(claim).toMatchObject({ acquired: true, fromQueue: true });
    expect(claim.fenceToken).toBeGreaterThan(0);
    expect(String(claim.fenceToken)).toBe(await redis.get(keys.fence));
  });

  it('a newcomer that does not fence hands a free lock to a fenced waiter ahead with a token', async () => {
    await redis.set(keys.fence, '7');
    await redis.set(keys.lock, 'holder', 'PX', 10_000);
    await queueAcquire(redis, keys, fenced, waiter('b'), timing);
    await redis.del(keys.lock); // the holder's lease ran out without a release
    const messages = await published(waiterWakeChannel(keys, 't-b'), () =>
      queueAcquire(redis, keys, plain, waiter('c'), timing),
    );
    expect(messages).toEqual(['b 8']);
  });
});

describe('queue-claim.lua', () => {
  const hash: QueueLockKind = { hash: true, fenced: false };

  it('turns the claim lease of a lock a release handed the waiter into its full lease, and leaves the others queued', async () => {
    await queueAcquire(redis, keys, plain, waiter('a'), timing);
    await queueAcquire(redis, keys, plain, waiter('b'), timing);
    await queueAcquire(redis, keys, plain, waiter('c'), timing);
    await queueRelease(redis, keys, plain, waiter('a'), timing); // hands the lock to b
    expect(await redis.pttl(keys.lock)).toBeLessThanOrEqual(1000);
    expect(await queueClaim(redis, keys, plain, 'b', timing.leaseMs)).toBe(true);
    expect(await redis.get(keys.lock)).toBe('b');
    expect(await redis.pttl(keys.lock)).toBeGreaterThan(9000);
    expect(await redis.lrange(keys.queue, 0, -1)).toEqual([queueEntry(waiter('c'))]);
  });

  it('claims a reentrant (hash) lock handed to the waiter', async () => {
    await queueAcquire(redis, keys, hash, waiter('a'), timing);
    await queueAcquire(redis, keys, hash, waiter('b'), timing);
    await queueRelease(redis, keys, hash, waiter('a'), timing);
    expect(await queueClaim(redis, keys, hash, 'b', timing.leaseMs)).toBe(true);
    expect(await redis.hgetall(keys.lock)).toEqual({ b: '1' });
    expect(await redis.pttl(keys.lock)).toBeGreaterThan(9000);
  });

  it('too late, finds the lock gone or passed on and changes nothing: it never takes a free lock', async () => {
    expect(await queueClaim(redis, keys, plain, 'b', timing.leaseMs)).toBe(false);
    expect(await redis.exists(keys.lock)).toBe(0);
    await redis.set(keys.lock, 'c', 'PX', 1000); // c was handed it after b's claim lease ran out
    expect(await queueClaim(redis, keys, plain, 'b', timing.leaseMs)).toBe(false);
    expect(await redis.get(keys.lock)).toBe('c');
    expect(await redis.pttl(keys.lock)).toBeLessThanOrEqual(1000);
    await redis.del(keys.lock);
    await redis.hset(keys.lock, 'c', 1);
    expect(await queueClaim(redis, keys, hash, 'b', timing.leaseMs)).toBe(false);
    expect(await redis.ttl(keys.lock)).toBe(-1);
  });

  it('does not claim a lock of the other kind, though it names the waiter: a holder of that kind handed it on', async () => {
    await queueAcquire(redis, keys, plain, waiter('a'), timing); // a string lock
    await queueAcquire(redis, keys, hash, waiter('b'), timing); // a reentrant waiter queues
    await queueRelease(redis, keys, plain, waiter('a'), timing); // hands it on as a string naming b
    expect(await redis.get(keys.lock)).toBe('b');
    expect(await queueClaim(redis, keys, hash, 'b', timing.leaseMs)).toBe(false);
    expect(await redis.pttl(keys.lock)).toBeLessThanOrEqual(1000); // it runs out with the claim lease
    await redis.del(keys.lock);
    await redis.hset(keys.lock, 'b', 1);
    await redis.pexpire(keys.lock, 1000);
    expect(await queueClaim(redis, keys, plain, 'b', timing.leaseMs)).toBe(false);
    expect(await redis.pttl(keys.lock)).toBeLessThanOrEqual(1000);
  });
});
