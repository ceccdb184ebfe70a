import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import type { FairKind } from './acquire-fair';

/** What a hand-off did: nothing (the lock was not ours), or the lock is the taker's now, with its token. */
export type HandoffResult = { readonly handed: false } | { readonly handed: true; readonly fenceToken?: number };

/**
 * handoff.lua: `owner`'s lock passes to `taker` with a lease of `leaseMs` (0: no expiry, setnx's
 * kind), if `owner` still held it alone.
 */
export async function handoffLock(
  redis: Redis,
  keys: LockKeys,
  how: FairKind,
  owner: string,
  taker: string,
  leaseMs: number,
): Promise<HandoffResult> {
  const fenced = how.fenced ? '1' : '0';
  const token = await redis.lockHandoff(keys.lock, keys.fence, owner, taker, leaseMs, how.kind, fenced);
  if (token === 0) return { handed: false };
  return how.fenced ? { handed: true, fenceToken: token } : { handed: true };
}
