import type Redis from 'ioredis';
import type { NodeVote } from './redlock-quorum';

/** One independent Redis of the Redlock set; `label` names it in votes (host:port). */
export interface RedlockNode {
  readonly label: string;
  readonly client: Redis;
}

/** `SET key owner NX PX lease` on one node, reduced to a vote; never throws. */
export async function acquireOnNode(node: RedlockNode, key: string, owner: string, leaseMs: number): Promise<NodeVote> {
  try {
    const reply = await node.client.set(key, owner, 'PX', leaseMs, 'NX');
    return reply === 'OK' ? 'granted' : 'taken';
  } catch (error) {
    return isTimeout(error) ? 'timeout' : 'down';
  }
}

/**
 * Compare-and-delete on one node, publishing on `wakeChannel` (unless '') once deleted: true when
 * this owner's key was removed; never throws.
 */
export async function releaseOnNode(node: RedlockNode, key: string, owner: string, wakeChannel = ''): Promise<boolean> {
  try {
    return (await node.client.redlockRelease(key, owner, wakeChannel)) === 1;
  } catch {
    return false;
  }
}

/** Swap `owner`'s key for `nextOwner`'s with a fresh lease on one node, reduced to a vote; never throws. */
export async function handOffOnNode(
  node: RedlockNode,
  key: string,
  owner: string,
  nextOwner: string,
  leaseMs: number,
): Promise<NodeVote> {
  try {
    return (await node.client.redlockHandoff(key, owner, nextOwner, leaseMs)) === 1 ? 'granted' : 'taken';
  } catch (error) {
    return isTimeout(error) ? 'timeout' : 'down';
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === 'Command timed out';
}
