import type { HandOffVerb } from './attempt';

/** fenced-handoff.lua: `nextOwner` holds the lock with the next fencing token, if `owner` still did. */
export const handOffFenced: HandOffVerb = async (redis, keys, owner, nextOwner, leaseMs) => {
  const token = await redis.lockFencedHandoff(keys.lock, keys.fence, owner, nextOwner, leaseMs);
  return token > 0 ? { handed: true, fenceToken: token } : { handed: false };
};
