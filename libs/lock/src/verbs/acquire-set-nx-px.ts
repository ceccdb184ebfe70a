import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import { heldFor, type Attempt } from './attempt';

/** SET key owner NX PX lease; the holder's PTTL comes back in the same MULTI. */
export async function acquireSetNxPx(redis: Redis, keys: LockKeys, owner: string, leaseMs: number): Promise<Attempt> {
  const replies = await redis.multi().set(keys.lock, owner, 'PX', leaseMs, 'NX').pttl(keys.lock).exec();
  const [[setError, set], [, ttl]] = replies as [[Error | null, string | null], [Error | null, number]];
  if (setError) throw setError;
  return set === 'OK' ? { acquired: true } : heldFor(ttl);
}
