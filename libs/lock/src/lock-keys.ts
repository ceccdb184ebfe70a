/**
 * The Redis keys of one lock. They share the hash tag `{resource}` so a Redis Cluster keeps them
 * on one slot (a Lua script may touch all of them); distinct resources such as the segments
 * `coupon:42:seg:3` get tags of their own and so spread over the cluster.
 */
export interface LockKeys {
  readonly resource: string;
  /** The lock itself (a string or, for the reentrant kinds, a hash of owner → hold count). */
  readonly lock: string;
  /** The pub/sub channel a release publishes on, to wake the waiters. */
  readonly wake: string;
  /** The fencing-token counter; never expires, so tokens only grow. */
  readonly fence: string;
}

export function lockKeys(resource: string): LockKeys {
  const lock = `lock:{${resource}}`;
  return { resource, lock, wake: `${lock}:wake`, fence: `${lock}:fence` };
}
