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

/** Compare-and-delete on one node: true when this owner's key was removed; never throws. */
export async function releaseOnNode(node: RedlockNode, key: string, owner: string): Promise<boolean> {
  try {
    return (await node.client.redlockRelease(key, owner)) === 1;
  } catch {
    return false;
  }
}

/** Swap `owner`'s key for `nextOwner`'s with a fresh lease on one node, reduced to a vote; never throws. */
export async function handoffOnNode(
  node: RedlockNode,
  key: string,
  owner: string,
  nextOwner: string,
  leaseMs: number,
): Promise<NodeVote> {
  try {
    const handed = await node.client.lockHandoff(key, `${key}:fence`, owner, nextOwner, leaseMs, 'string', '0');
    return handed === 1 ? 'granted' : 'taken';
  } catch (error) {
    return isTimeout(error) ? 'timeout' : 'down';
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === 'Command timed out';
}
