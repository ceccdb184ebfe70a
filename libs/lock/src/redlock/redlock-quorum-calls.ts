import { performance } from 'node:perf_hooks';
import type { Attempt } from '../verbs/attempt';
import { countListeners } from '../verbs/count-listeners';
import { handOffMarginMs, type HandoffSlot } from '../waiting/handoff-slot';
import { acquireOnNode, handOffOnNode, releaseOnNode, type RedlockNode } from './redlock-node';
import { judgeAttempt, runCovers, validityMs, type NodeVote } from './redlock-quorum';

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
   * Hands the lock to the slot's waiter. Within the run's first hundredth of the waiter's lease
   * (`runCovers`), the waiter holds under `owner` and its validity (capped at what a swap of its
   * own would give it), with no call to the nodes: lock cohorting, as owner-checked's run does in
   * Redis. Never a hold that is lost (`validUntil` 0), past its validity, or still waiting for its
   * own swap's verdict (`confirmed` false). Otherwise the nodes swap the key.
   */
  async handOff(
    slot: HandoffSlot,
    key: string,
    owner: string,
    driftFactor: number,
    validUntil: number,
    confirmed = true,
  ) {
    const now = performance.now();
    if (!confirmed || validUntil <= now || !runCovers(validUntil, slot.leaseMs, now, driftFactor)) {
      return this.swap(slot, key, owner, driftFactor, validUntil);
    }
    if (!slot.claim()) return false;
    slot.settle(true, {
      validUntil: Math.min(validUntil, now + validityMs(slot.leaseMs, 0, driftFactor)),
      runOwner: owner,
    });
    return true;
  }

  /**
   * Swaps `owner`'s key for the slot's waiter on every node, under the waiter's hand-off owner
   * value (`handedOwner`: never the value its own attempts write, so a give-back of a failed
   * attempt cannot delete it); the waiter holds the lock when a majority swapped within its
   * lease, as an acquire would. While the giver's majority surely lasts a while yet (`validUntil`,
   * by performance.now()), the waiter starts at once, valid until the sooner of that and its own
   * lease, and the swap's verdict reaches it as its confirmation; a lost verdict then aborts it,
   * and the keys go with its release (or their lease), never behind its back. Else it waits for
   * the verdict, and a lost swap is given back at once. False when the slot was gone or the swap
   * lost.
   */
  private async swap(slot: HandoffSlot, key: string, owner: string, driftFactor: number, validUntil: number) {
    if (!slot.claim()) return false;
    const taker = handedOwner(slot.owner);
    const sentAt = Date.now();
    const started = performance.now();
    const swapped = Promise.all(this.nodes.map((node) => handOffOnNode(node, key, owner, taker, slot.leaseMs))).then(
      (votes) => judgeAttempt(votes, slot.leaseMs, performance.now() - started, driftFactor).acquired,
    );
    const takerValidUntil = Math.min(validUntil, started + validityMs(slot.leaseMs, 0, driftFactor));
    if (takerValidUntil - started > handOffMarginMs(slot.leaseMs)) {
      const confirmation = swapped.then(
        (won) => (won ? undefined : 'the hand-off lost its majority'),
        (error: unknown) => `the hand-off failed: ${String(error)}`,
      );
      slot.settle(true, { sentAt, validUntil: takerValidUntil, confirmation });
      return true;
    }
    let handed = false;
    try {
      handed = await swapped;
      if (!handed) await Promise.all([this.release(key, taker), this.release(key, owner)]);
    } finally {
      slot.settle(handed, { sentAt });
    }
    return handed;
  }

  /** How many processes listen for wake-ups (they subscribe on every node: the first to answer tells); 1 when unknown. */
  listeners(wakeChannel: string): Promise<number> {
    return Promise.any(this.nodes.map(({ client }) => countListeners(client, wakeChannel))).catch(() => 1);
  }
}

/** The owner value a waiter holds a lock swapped to it under (its attempts write `owner` itself; a run's taker holds under the run's). */
export function handedOwner(owner: string): string {
  return `${owner}:handed`;
}

/** The owner value the nodes hold for a waiter whose wait ended with the lock: its own, the swap's, or its run's. */
export function heldOwner(got: Pick<Attempt, 'handedOff' | 'runOwner'>, owner: string): string {
  if (got.runOwner !== undefined) return got.runOwner;
  return got.handedOff ? handedOwner(owner) : owner;
}
