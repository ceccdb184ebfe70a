import type { HandOffVerb } from './attempt';

/**
 * owner-handoff.lua: `nextOwner` holds the lock now if `owner` still did. A lease of 0 keeps the
 * key without expiry (setnx's kind of lock).
 */
export const handOffOwner: HandOffVerb = async (redis, keys, owner, nextOwner, leaseMs) => ({
  handed: (await redis.lockOwnerHandoff(keys.lock, owner, nextOwner, leaseMs)) === 1,
});
