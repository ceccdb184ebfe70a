import { performance } from 'node:perf_hooks';
import type { Taker } from '../waiting/line';
import { acquireOnNode, handoffOnNode, releaseOnNode, type RedlockNode } from './redlock-node';
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

  /** Compare-and-delete on every node, reachable or not; how many deleted the key. */
  async release(key: string, owner: string): Promise<number> {
    const deleted = await Promise.all(this.nodes.map((node) => releaseOnNode(node, key, owner)));
    return deleted.filter(Boolean).length;
  }

  /**
   * Swaps `owner`'s key for `taker`'s on every node, with the taker's lease: the taker holds the
   * lock when a majority swapped in time, as an acquire would, and until when (performance.now)
   * is returned. A lost swap gives back what it won and returns undefined.
   */
  async handoff(key: string, owner: string, taker: Taker, driftFactor: number): Promise<number | undefined> {
    const started = performance.now();
    const votes = await Promise.all(
      this.nodes.map((node) => handoffOnNode(node, key, owner, taker.owner, taker.leaseMs)),
    );
    const verdict = judgeAttempt(votes, taker.leaseMs, performance.now() - started, driftFactor);
    if (verdict.acquired) return performance.now() + verdict.validityMs;
    await this.release(key, taker.owner);
    return undefined;
  }
}
