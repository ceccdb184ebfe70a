import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import type { ReleaseOutcome } from './attempt';

/** Plain DEL: deletes whatever is there, ours or not. */
export async function releaseDel(redis: Redis, keys: LockKeys): Promise<ReleaseOutcome> {
  const replies = await redis.multi().del(keys.lock).exec();
  const [[error, deleted]] = replies as [[Error | null, number]];
  if (error) throw error;
  return { status: deleted === 1 ? 'released' : 'expired' };
}
