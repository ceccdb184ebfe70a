import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import type { ReleaseOutcome } from './attempt';

/**
 * GETDEL: still an unconditional delete, but the deleted value tells us
 * afterwards whether it was our lock or the next holder's (a foreign delete).
 */
export async function releaseGetdel(redis: Redis, keys: LockKeys, owner: string): Promise<ReleaseOutcome> {
  const replies = await redis.multi().getdel(keys.lock).exec();
  const [[error, deleted]] = replies as [[Error | null, string | null]];
  if (error) throw error;
  if (deleted === null) return { status: 'expired' };
  return deleted === owner ? { status: 'released' } : { status: 'foreign-delete', detail: deleted };
}
