import type { Redis } from 'ioredis';
import { scriptClients } from '../../../../test/redis/script-clients';
import type { LockKeys } from '../lock-keys';
import { LUA_COMMANDS, readLuaScript } from './lua-commands';

// Each script alone against real Redis, success and failure returns, read back behind its back.
let redis: Redis;
let keys: LockKeys;
const published = scriptClients('lua', (test) => ({ redis, keys } = test));

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

describe('owner-release.lua', () => {
  it('deletes the lock and publishes the wake-up when the owner matches', async () => {
    await redis.set(keys.lock, 'me', 'PX', 5000);
    const messages = await published(keys.wake, async () => {
      expect(await redis.lockOwnerRelease(keys.lock, keys.wake, 'me')).toBe(1);
    });
    expect(await redis.exists(keys.lock)).toBe(0);
    expect(messages).toEqual(['released']);
  });

  it("returns 0 and leaves someone else's lock alone, without a wake-up", async () => {
    await redis.set(keys.lock, 'other', 'PX', 5000);
    const messages = await published(keys.wake, async () => {
      expect(await redis.lockOwnerRelease(keys.lock, keys.wake, 'me')).toBe(0);
    });
    expect(await redis.get(keys.lock)).toBe('other');
    expect(messages).toEqual([]);
  });

  it('returns 0 when the lock has gone', async () => {
    expect(await redis.lockOwnerRelease(keys.lock, keys.wake, 'me')).toBe(0);
  });
});

describe('reentrant-acquire.lua', () => {
  it('acquires a free lock: nil, count 1, lease set', async () => {
    expect(await redis.lockReentrantAcquire(keys.lock, 'api-1:a', 5000)).toBeNull();
    expect(await redis.hgetall(keys.lock)).toEqual({ 'api-1:a': '1' });
    expect(await redis.pttl(keys.lock)).toBeGreaterThan(4900);
  });

  it('re-enters for the same owner: nil, count 2, lease refreshed', async () => {
    await redis.lockReentrantAcquire(keys.lock, 'api-1:a', 100);
    expect(await redis.lockReentrantAcquire(keys.lock, 'api-1:a', 5000)).toBeNull();
    expect(await redis.hget(keys.lock, 'api-1:a')).toBe('2');
    expect(await redis.pttl(keys.lock)).toBeGreaterThan(4900);
  });

  it("refuses another owner with the holder's remaining PTTL, changing nothing", async () => {
    await redis.lockReentrantAcquire(keys.lock, 'api-1:a', 3000);
    const ttl = await redis.lockReentrantAcquire(keys.lock, 'api-2:b', 5000);
    expect(ttl).toBeGreaterThan(2900);
    expect(ttl).toBeLessThanOrEqual(3000);
    expect(await redis.hgetall(keys.lock)).toEqual({ 'api-1:a': '1' });
  });
});

describe('reentrant-release.lua', () => {
  it('decrements while holds remain (0, lease re-applied, no wake-up)', async () => {
    await redis.hset(keys.lock, 'api-1:a', 2);
    const messages = await published(keys.wake, async () => {
      expect(await redis.lockReentrantRelease(keys.lock, keys.wake, 'api-1:a', 4000)).toBe(0);
    });
    expect(await redis.hget(keys.lock, 'api-1:a')).toBe('1');
    expect(await redis.pttl(keys.lock)).toBeGreaterThan(3900);
    expect(messages).toEqual([]);
  });

  it('deletes at zero and publishes the wake-up (1)', async () => {
    await redis.hset(keys.lock, 'api-1:a', 1);
    const messages = await published(keys.wake, async () => {
      expect(await redis.lockReentrantRelease(keys.lock, keys.wake, 'api-1:a', 4000)).toBe(1);
    });
    expect(await redis.exists(keys.lock)).toBe(0);
    expect(messages).toEqual(['released']);
  });

  it("refuses a non-owner (-1) and leaves the holder's count", async () => {
    await redis.hset(keys.lock, 'api-1:a', 1);
    expect(await redis.lockReentrantRelease(keys.lock, keys.wake, 'api-2:b', 4000)).toBe(-1);
    expect(await redis.hget(keys.lock, 'api-1:a')).toBe('1');
  });
});

describe('reentrant-renew.lua', () => {
  it('extends the lease of its own lock (1)', async () => {
    await redis.lockReentrantAcquire(keys.lock, 'api-1:a', 100);
    expect(await redis.lockReentrantRenew(keys.lock, 'api-1:a', 5000)).toBe(1);
    expect(await redis.pttl(keys.lock)).toBeGreaterThan(4900);
  });

  it('does not touch a lock that is not ours (0): no renewal can revive or extend it', async () => {
    await redis.lockReentrantAcquire(keys.lock, 'api-2:b', 1000);
    expect(await redis.lockReentrantRenew(keys.lock, 'api-1:a', 5000)).toBe(0);
    expect(await redis.pttl(keys.lock)).toBeLessThanOrEqual(1000);
    await redis.del(keys.lock);
    expect(await redis.lockReentrantRenew(keys.lock, 'api-1:a', 5000)).toBe(0);
    expect(await redis.exists(keys.lock)).toBe(0);
  });
});

describe('fenced-acquire.lua', () => {
  it('acquires with the next token, and tokens only grow across releases', async () => {
    const [acquired, first] = await redis.lockFencedAcquire(keys.lock, keys.fence, 'a', 5000);
    expect(acquired).toBe(1);
    expect(await redis.get(keys.lock)).toBe('a');
    await redis.del(keys.lock);
    const [, second] = await redis.lockFencedAcquire(keys.lock, keys.fence, 'b', 5000);
    expect(second).toBe(first + 1);
    expect(await redis.pttl(keys.fence)).toBe(-1); // the counter never expires
  });

  it('starts a lost counter again above every token drawn before (a Redis restart keeps no data)', async () => {
    const [, first] = await redis.lockFencedAcquire(keys.lock, keys.fence, 'a', 5000);
    const [seconds] = await redis.time();
    expect(Math.floor(first / 1e6)).toBeGreaterThanOrEqual(Number(seconds) - 1); // seeded from Redis's clock in µs
    await redis.del(keys.lock);
    for (let i = 0; i < 50; i++) {
      await redis.incr(keys.fence); // tokens drawn by other holders
    }
    const drawn = Number(await redis.get(keys.fence));
    await redis.del(keys.lock, keys.fence); // the data is lost
    const [acquired, next] = await redis.lockFencedAcquire(keys.lock, keys.fence, 'b', 5000);
    expect(acquired).toBe(1);
    expect(next).toBeGreaterThan(drawn);
    expect(Number.isSafeInteger(next)).toBe(true);
  });

  it('refuses while held ({0, pttl}) without spending a token', async () => {
    await redis.lockFencedAcquire(keys.lock, keys.fence, 'a', 3000);
    const before = await redis.get(keys.fence);
    const [acquired, ttl] = await redis.lockFencedAcquire(keys.lock, keys.fence, 'b', 5000);
    expect(acquired).toBe(0);
    expect(ttl).toBeGreaterThan(2900);
    expect(await redis.get(keys.fence)).toBe(before);
    expect(await redis.get(keys.lock)).toBe('a');
  });
});

describe('a lock of the other kind (left by another strategy on the same resource)', () => {
  it("reentrant scripts treat a string lock as someone else's, without WRONGTYPE", async () => {
    await redis.set(keys.lock, 'string-owner', 'PX', 3000);
    expect(await redis.lockReentrantAcquire(keys.lock, 'api-1:a', 5000)).toBeGreaterThan(2900);
    expect(await redis.lockReentrantRelease(keys.lock, keys.wake, 'api-1:a', 5000)).toBe(-1);
    expect(await redis.lockReentrantRenew(keys.lock, 'api-1:a', 5000)).toBe(0);
    expect(await redis.get(keys.lock)).toBe('string-owner');
  });

  it('owner-release leaves a hash lock alone (0)', async () => {
    await redis.hset(keys.lock, 'api-1:a', 1);
    expect(await redis.lockOwnerRelease(keys.lock, keys.wake, 'api-1:a')).toBe(0);
    expect(await redis.hget(keys.lock, 'api-1:a')).toBe('1');
  });
});

describe('owner-handoff.lua', () => {
  it('passes the lock to the next owner with its lease, without a wake-up', async () => {
    await redis.set(keys.lock, 'me', 'PX', 100);
    const messages = await published(keys.wake, async () => {
      expect(await redis.lockOwnerHandoff(keys.lock, 'me', 'next', 5000)).toBe(1);
    });
    expect(await redis.get(keys.lock)).toBe('next');
    expect(await redis.pttl(keys.lock)).toBeGreaterThan(4900);
    expect(messages).toEqual([]);
  });

  it("returns 0 and changes nothing when the lock is someone else's, gone, or of another kind", async () => {
    await redis.set(keys.lock, 'other', 'PX', 5000);
    expect(await redis.lockOwnerHandoff(keys.lock, 'me', 'next', 5000)).toBe(0);
    expect(await redis.get(keys.lock)).toBe('other');
    await redis.del(keys.lock);
    expect(await redis.lockOwnerHandoff(keys.lock, 'me', 'next', 5000)).toBe(0);
    expect(await redis.exists(keys.lock)).toBe(0);
    await redis.hset(keys.lock, 'me', 1);
    expect(await redis.lockOwnerHandoff(keys.lock, 'me', 'next', 5000)).toBe(0);
    expect(await redis.hgetall(keys.lock)).toEqual({ me: '1' });
  });

  it('with a lease of 0 passes a lock without expiry on, still without expiry (setnx)', async () => {
    await redis.set(keys.lock, 'me');
    expect(await redis.lockOwnerHandoff(keys.lock, 'me', 'next', 0)).toBe(1);
    expect(await redis.get(keys.lock)).toBe('next');
    expect(await redis.pttl(keys.lock)).toBe(-1);
  });
});

describe('fenced-handoff.lua', () => {
  it('passes the lock to the next owner with its lease and the next token, without a wake-up', async () => {
    await redis.lockFencedAcquire(keys.lock, keys.fence, 'me', 100);
    const before = Number(await redis.get(keys.fence));
    let token = 0;
    const messages = await published(keys.wake, async () => {
      token = await redis.lockFencedHandoff(keys.lock, keys.fence, 'me', 'next', 5000);
    });
    expect(token).toBe(before + 1);
    expect(await redis.get(keys.fence)).toBe(String(before + 1));
    expect(await redis.get(keys.lock)).toBe('next');
    expect(await redis.pttl(keys.lock)).toBeGreaterThan(4900);
    expect(messages).toEqual([]);
  });

  it('seeds a lost counter from the clock too, above the tokens drawn before', async () => {
    const [, first] = await redis.lockFencedAcquire(keys.lock, keys.fence, 'me', 5000);
    await redis.del(keys.fence);
    const token = await redis.lockFencedHandoff(keys.lock, keys.fence, 'me', 'next', 5000);
    expect(token).toBeGreaterThan(first);
    expect(await redis.get(keys.lock)).toBe('next');
  });

  it("returns 0 and draws no token when the lock is someone else's, gone, or of another kind", async () => {
    await redis.lockFencedAcquire(keys.lock, keys.fence, 'other', 5000);
    const counter = await redis.get(keys.fence);
    expect(await redis.lockFencedHandoff(keys.lock, keys.fence, 'me', 'next', 5000)).toBe(0);
    expect(await redis.get(keys.lock)).toBe('other');
    await redis.del(keys.lock);
    expect(await redis.lockFencedHandoff(keys.lock, keys.fence, 'me', 'next', 5000)).toBe(0);
    expect(await redis.exists(keys.lock)).toBe(0);
    await redis.hset(keys.lock, 'me', 1);
    expect(await redis.lockFencedHandoff(keys.lock, keys.fence, 'me', 'next', 5000)).toBe(0);
    expect(await redis.hgetall(keys.lock)).toEqual({ me: '1' });
    expect(await redis.get(keys.fence)).toBe(counter);
  });
});

describe('reentrant-handoff.lua', () => {
  it('passes a single hold to the next owner: only it in the hash, count 1, its lease', async () => {
    await redis.lockReentrantAcquire(keys.lock, 'api-1:a', 100);
    expect(await redis.lockReentrantHandoff(keys.lock, 'api-1:a', 'api-1:b', 5000)).toBe(1);
    expect(await redis.hgetall(keys.lock)).toEqual({ 'api-1:b': '1' });
    expect(await redis.pttl(keys.lock)).toBeGreaterThan(4900);
  });

  it('returns 0 and changes nothing while nested holds remain', async () => {
    await redis.lockReentrantAcquire(keys.lock, 'api-1:a', 5000);
    await redis.lockReentrantAcquire(keys.lock, 'api-1:a', 5000);
    expect(await redis.lockReentrantHandoff(keys.lock, 'api-1:a', 'api-1:b', 5000)).toBe(0);
    expect(await redis.hgetall(keys.lock)).toEqual({ 'api-1:a': '2' });
  });

  it("returns 0 and changes nothing when the lock is someone else's, gone, or of another kind", async () => {
    await redis.lockReentrantAcquire(keys.lock, 'api-2:x', 5000);
    expect(await redis.lockReentrantHandoff(keys.lock, 'api-1:a', 'api-1:b', 5000)).toBe(0);
    expect(await redis.hgetall(keys.lock)).toEqual({ 'api-2:x': '1' });
    await redis.del(keys.lock);
    expect(await redis.lockReentrantHandoff(keys.lock, 'api-1:a', 'api-1:b', 5000)).toBe(0);
    expect(await redis.exists(keys.lock)).toBe(0);
    await redis.set(keys.lock, 'api-1:a', 'PX', 5000);
    expect(await redis.lockReentrantHandoff(keys.lock, 'api-1:a', 'api-1:b', 5000)).toBe(0);
    expect(await redis.get(keys.lock)).toBe('api-1:a');
  });
});
