import type { Redis } from 'ioredis';
import { scriptClients } from '../../../../test/redis/script-clients';
import { wakeChannel, type LockKeys } from '../lock-keys';
import { LUA_COMMANDS, readLuaScript, type LockKind } from './lua-commands';

// Each script alone against real Redis, success and failure returns, read back behind its back.
let redis: Redis;
let keys: LockKeys;
const published = scriptClients('lua', (test) => ({ redis, keys } = test));

/** acquire.lua for `owner` of process `tag`; heartbeat 1000 ms unless given. */
const acquire = (owner: string, tag: string, o: { kind?: LockKind; fenced?: boolean; heartbeatMs?: number } = {}) =>
  redis.lockAcquire(
    keys.lock,
    keys.queue,
    keys.heartbeats,
    keys.fence,
    owner,
    tag,
    5000,
    o.heartbeatMs ?? 1000,
    o.kind ?? 'string',
    o.fenced ? '1' : '0',
  );
const release = (owner: string, kind: LockKind = 'string') =>
  redis.lockRelease(keys.lock, keys.queue, owner, kind, 5000, keys.wakePrefix);
const handoff = (owner: string, taker: string, o: { kind?: LockKind; fenced?: boolean; leaseMs?: number } = {}) =>
  redis.lockHandoff(keys.lock, keys.fence, owner, taker, o.leaseMs ?? 5000, o.kind ?? 'string', o.fenced ? '1' : '0');

describe('script files', () => {
  it.each(Object.values(LUA_COMMANDS).map(([file]) => file))(
    '%s names KEYS, ARGV and its returns in its header',
    (file) => {
      const header = readLuaScript(file)
        .split('\n')
        .filter((line) => line.startsWith('--'))
        .join('\n');
      expect(header).toMatch(/KEYS\[1\]/);
      expect(header).toMatch(/ARGV\[1\]/);
      expect(header).toMatch(/returns/);
    },
  );
});

describe('acquire.lua', () => {
  it('takes a free lock with its lease, else queues the process once, in arrival order, with a heartbeat', async () => {
    expect(await acquire('a', 'p1')).toEqual([1, 0]);
    expect(await redis.get(keys.lock)).toBe('a');
    expect(await redis.pttl(keys.lock)).toBeGreaterThan(4000);
    const [taken, ttl] = await acquire('b', 'p2');
    expect(taken).toBe(0);
    expect(ttl).toBeGreaterThan(4000); // the holder's PTTL: how long to wait at most
    await acquire('c', 'p3');
    await acquire('b2', 'p2'); // the same process again: its place is kept, its heartbeat refreshed
    expect(await redis.lrange(keys.queue, 0, -1)).toEqual(['p2', 'p3']);
    const [, deadline] = await redis.zrange(keys.heartbeats, 0, 0, 'WITHSCORES');
    const [seconds] = await redis.time();
    expect(Number(deadline)).toBeGreaterThan(Number(seconds) * 1000);
  });

  it('lets only the front take a free lock: a newcomer queues behind a live process', async () => {
    await acquire('a', 'p1');
    await acquire('b', 'p2'); // queued
    await redis.del(keys.lock);
    expect(await acquire('c', 'p3')).toEqual([0, -2]); // free, but p2 is ahead
    expect(await acquire('b', 'p2')).toEqual([1, 0]); // the front takes it, and leaves the queue
    expect(await redis.lrange(keys.queue, 0, -1)).toEqual(['p3']);
  });

  it('skips a dead front (its heartbeat ran out): the next process takes the free lock', async () => {
    await acquire('a', 'p1');
    await acquire('dead', 'p2', { heartbeatMs: 50 });
    await acquire('b', 'p3');
    await redis.del(keys.lock);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await acquire('b', 'p3')).toEqual([1, 0]);
    expect(await redis.exists(keys.queue, keys.heartbeats)).toBe(0);
  });

  it('with a heartbeat of 0 makes one attempt and never queues', async () => {
    await acquire('a', 'p1');
    expect((await acquire('b', 'p2', { heartbeatMs: 0 }))[0]).toBe(0);
    expect(await redis.exists(keys.queue, keys.heartbeats)).toBe(0);
  });

  it('hash kind: re-enters for the same owner (count 2) past the queue; another owner waits', async () => {
    expect(await acquire('a', 'p1', { kind: 'hash' })).toEqual([1, 0]);
    await acquire('b', 'p2', { kind: 'hash' }); // queued
    expect(await acquire('a', 'p1', { kind: 'hash' })).toEqual([1, 0]);
    expect(await redis.hget(keys.lock, 'a')).toBe('2');
    expect(await redis.lrange(keys.queue, 0, -1)).toEqual(['p2']);
  });

  it('fenced: draws strictly increasing tokens from a counter that never expires, seeded from the clock', async () => {
    const [, first] = await acquire('a', 'p1', { fenced: true });
    const [seconds] = await redis.time();
    expect(Math.floor(first / 1e6)).toBeGreaterThanOrEqual(Number(seconds) - 1); // Redis's clock in µs
    await redis.del(keys.lock);
    const [, second] = await acquire('b', 'p1', { fenced: true });
    expect(second).toBe(first + 1);
    expect(await redis.pttl(keys.fence)).toBe(-1);
    expect(await acquire('c', 'p2', { fenced: true })).toEqual([0, expect.any(Number)]); // no token spent
    expect(Number(await redis.get(keys.fence))).toBe(second);
    await redis.del(keys.lock, keys.fence, keys.queue, keys.heartbeats); // the data is lost
    const [, next] = await acquire('d', 'p1', { fenced: true });
    expect(next).toBeGreaterThan(second);
  });

  it("treats a lock of the other kind as someone else's, without WRONGTYPE", async () => {
    await redis.set(keys.lock, 'x', 'PX', 5000);
    expect((await acquire('x', 'p1', { kind: 'hash' }))[0]).toBe(0);
  });
});

describe('release.lua', () => {
  it('deletes the lock and wakes the process at the front of the queue alone, on its channel', async () => {
    await acquire('a', 'p1');
    await acquire('b', 'p2');
    const messages = await published(wakeChannel(keys, 'p2'), async () => {
      expect(await release('a')).toBe(1);
    });
    expect(await redis.exists(keys.lock)).toBe(0);
    expect(messages).toEqual(['released']);
    expect(await redis.lrange(keys.queue, 0, -1)).toEqual(['p2']); // the front takes it with acquire.lua
  });

  it("returns -1 and leaves someone else's lock, or a lock of the other kind, alone, without a wake-up", async () => {
    await acquire('other', 'p1');
    await acquire('b', 'p2');
    const messages = await published(wakeChannel(keys, 'p2'), async () => {
      expect(await release('me')).toBe(-1);
      expect(await release('other', 'hash')).toBe(-1);
    });
    expect(await redis.get(keys.lock)).toBe('other');
    expect(messages).toEqual([]);
    await redis.del(keys.lock);
    expect(await release('me')).toBe(-1); // gone
  });

  it('hash kind: one hold fewer (0, lease kept), the last deletes (1); a non-owner is refused (-1)', async () => {
    await acquire('a', 'p1', { kind: 'hash' });
    await acquire('a', 'p1', { kind: 'hash' });
    await redis.pexpire(keys.lock, 1000);
    expect(await release('a', 'hash')).toBe(0);
    expect(await redis.hget(keys.lock, 'a')).toBe('1');
    expect(await redis.pttl(keys.lock)).toBeGreaterThan(4000);
    expect(await release('b', 'hash')).toBe(-1);
    expect(await release('a', 'hash')).toBe(1);
    expect(await redis.exists(keys.lock)).toBe(0);
  });
});

describe('handoff.lua', () => {
  it('passes the lock to the taker with its lease, without a wake-up; 0 when not ours', async () => {
    await acquire('a', 'p1');
    await acquire('b', 'p2');
    const messages = await published(wakeChannel(keys, 'p2'), async () => {
      expect(await handoff('a', 'a2', { leaseMs: 3000 })).toBe(1);
      expect(await handoff('a', 'a3')).toBe(0); // a's no more
    });
    expect(await redis.get(keys.lock)).toBe('a2');
    expect(await redis.pttl(keys.lock)).toBeGreaterThan(2000);
    expect(messages).toEqual([]);
  });

  it('with a lease of 0 keeps a lock without expiry so (setnx)', async () => {
    await redis.set(keys.lock, 'a');
    expect(await handoff('a', 'b', { leaseMs: 0 })).toBe(1);
    expect(await redis.pttl(keys.lock)).toBe(-1);
  });

  it('hash kind: passes a single hold, never nested ones or a lock of the other kind', async () => {
    await acquire('a', 'p1', { kind: 'hash' });
    await acquire('a', 'p1', { kind: 'hash' });
    expect(await handoff('a', 'b', { kind: 'hash' })).toBe(0); // nested
    await release('a', 'hash');
    expect(await handoff('a', 'b', { kind: 'hash' })).toBe(1);
    expect(await redis.hgetall(keys.lock)).toEqual({ b: '1' });
    expect(await handoff('b', 'c')).toBe(0); // as a string lock: not ours
  });

  it("fenced: the taker's token is the next one; none drawn when refused", async () => {
    const [, first] = await acquire('a', 'p1', { fenced: true });
    expect(await handoff('a', 'b', { fenced: true })).toBe(first + 1);
    expect(await handoff('a', 'c', { fenced: true })).toBe(0);
    expect(Number(await redis.get(keys.fence))).toBe(first + 1);
  });
});

describe('renew.lua', () => {
  it('extends the lease of its own hash lock (1), never one that is not ours (0)', async () => {
    await acquire('a', 'p1', { kind: 'hash' });
    await redis.pexpire(keys.lock, 1000);
    expect(await redis.lockRenew(keys.lock, 'a', 5000)).toBe(1);
    expect(await redis.pttl(keys.lock)).toBeGreaterThan(4000);
    expect(await redis.lockRenew(keys.lock, 'b', 5000)).toBe(0);
    await redis.del(keys.lock);
    expect(await redis.lockRenew(keys.lock, 'a', 5000)).toBe(0);
    expect(await redis.exists(keys.lock)).toBe(0);
  });
});
