import { performance } from 'node:perf_hooks';
import { countListeners } from '../verbs/count-listeners';
import type { HandoffSlot } from '../waiting/handoff-slot';
import { acquireOnNode, handOffOnNode, releaseOnNode, type RedlockNode } from './redlock-node';
import { judgeAttempt, type NodeVote } from './redlock-quorum';

/** One Redlock call on every node at once: acquire, release, hand off. */
export class RedlockQuorum {
  constructor(private readonly nodes: readonly RedlockNode[]) {}

  get size(): number {
    return this.nodes.length;
  }

  get labels(): string[] {
    return this.nodes.map((node) => node.label);
  }

  /** `SET key owner NX PX lease` on every node: their votes. */
  acquire(key: string, owner: string, leaseMs: number): Promise<NodeVote[]> {
    return Promise.all(this.nodes.map((node) => acquireOnNode(node, key, owner, leaseMs)));
  }

  /**
   * Compare-and-delete on every node, reachable or not, waking the waiters on `wakeChannel`
   * unless '' (giving back a lost attempt's minority wakes nobody); how many deleted the key.
   */
  async release(key: string, owner: string, wakeChannel = ''): Promise<number> {
    const deleted = await Promise.all(this.nodes.map((node) => releaseOnNode(node, key, owner, wakeChannel)));
    return deleted.filter(Boolean).length;
  }

  /**
   * Swaps `owner`'s key for the slot's waiter on every node; the waiter holds the lock when a
   * majority swapped within its lease (as an acquire would). While the giver's majority surely
   * lasts a while yet (`validUntil`, by performance.now()), the waiter starts at once and the
   * swap's verdict reaches it as its confirmation; else it waits for the verdict. A lost swap
   * gives back what either owner still has. False when the slot was gone or the swap lost.
   */
  async handOff(slot: HandoffSlot, key: string, owner: string, driftFactor: number, validUntil: number) {
    if (!slot.claim()) return false;
    const sentAt = Date.now();
    const started = performance.now();
    const swapped = Promise.all(this.nodes.map((node) => handOffOnNode(node, key, owner, slot.owner, slot.leaseMs)))
      .then((votes) => judgeAttempt(votes, slot.leaseMs, performance.now() - started, driftFactor).acquired)
      .then(async (won) => {
        if (!won) await Promise.all([this.release(key, slot.owner), this.release(key, owner)]);
        return won;
      });
    if (validUntil - started > handOffMarginMs(slot.leaseMs)) {
      const confirmation = swapped.then(
        (won) => (won ? undefined : 'the hand-off lost its majority'),
        (error: unknown) => `the hand-off failed: ${String(error)}`,
      );
      slot.settle(true, { sentAt, validUntil, confirmation });
      return true;
    }
    let handed = false;
    try {
      handed = await swapped;
    } finally {
      slot.settle(handed, { sentAt });
    }
    return handed;
  }

  /** How many processes listen for wake-ups on the first node (where they subscribe); 1 when unknown. */
  listeners(wakeChannel: string): Promise<number> {
    return countListeners(this.nodes[0].client, wakeChannel).catch(() => 1);
  }
}

/** How much of the giver's validity must be left for the taker to start before the swap answers. */
function handOffMarginMs(leaseMs: number): number {
  return Math.max(100, leaseMs / 10);
}
