import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import { heldFor, type Attempt } from './attempt';

/** SETNX, no expiry: a holder that never releases holds the lock forever. PTTL in the same MULTI. */
export async function acquireSetnx(redis: Redis, keys: LockKeys, owner: string): Promise<Attempt> {
  const replies = await redis.multi().setnx(keys.lock, owner).pttl(keys.lock).exec();
  const [[setError, set], [, ttl]] = replies as [[Error | null, number], [Error | null, number]];
  if (setError) throw setError;
  return set === 1 ? { acquired: true } : heldFor(ttl);
}
