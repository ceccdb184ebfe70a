import { RecentMap } from './recent-map';

/**
 * The Redis keys of one lock. They share the hash tag `{resource}` so a Redis Cluster keeps them
 * on one slot (a Lua script may touch all of them); distinct resources such as the segments
 * `coupon:42:seg:3` get tags of their own and so spread over the cluster.
 */
export interface LockKeys {
  readonly resource: string;
  /** The lock itself (a string or, for the reentrant kinds, a hash of owner → hold count). */
  readonly lock: string;
  /** The fencing-token counter; never expires, so tokens only grow. */
  readonly fence: string;
  /** The fair queue: a list of process tags, oldest first. */
  readonly queue: string;
  /** Each queued process's heartbeat deadline (sorted set, ms by Redis's clock). */
  readonly heartbeats: string;
  /** A process's wake-up channel for this lock is this prefix followed by its tag. */
  readonly wakePrefix: string;
}

const recentKeys = new RecentMap(256, keysOf);

export function lockKeys(resource: string): LockKeys {
  return recentKeys.get(resource);
}

function keysOf(resource: string): LockKeys {
  const lock = `lock:{${resource}}`;
  // Frozen: one object serves every caller of a cached resource.
  return Object.freeze({
    resource,
    lock,
    fence: `${lock}:fence`,
    queue: `${lock}:queue`,
    heartbeats: `${lock}:heartbeats`,
    wakePrefix: `${lock}:wake:`,
  });
}

/** The wake-up channel of one process (`tag`) on one lock. */
export function wakeChannel(keys: LockKeys, tag: string): string {
  return keys.wakePrefix + tag;
}
