import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import type { Attempt } from './attempt';

/** fenced-acquire.lua: SET NX PX plus INCR of the fence counter in one script. */
export async function acquireFenced(redis: Redis, keys: LockKeys, owner: string, leaseMs: number): Promise<Attempt> {
  const [acquired, value] = await redis.lockFencedAcquire(keys.lock, keys.fence, owner, leaseMs);
  return acquired === 1 ? { acquired: true, fenceToken: value } : { acquired: false, holderTtlMs: value };
}
