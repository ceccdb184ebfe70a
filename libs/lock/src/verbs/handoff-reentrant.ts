import type { HandOffVerb } from './attempt';

/** reentrant-handoff.lua: `owner`'s single hold now belongs to `nextOwner`, if it was still there. */
export const handOffReentrant: HandOffVerb = async (redis, keys, owner, nextOwner, leaseMs) => ({
  handed: (await redis.lockReentrantHandoff(keys.lock, owner, nextOwner, leaseMs)) === 1,
});
