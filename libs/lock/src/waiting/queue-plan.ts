import type { Attempt } from '../verbs/attempt';

/** What the queue wait mode needs of a strategy for one acquisition. */
export interface QueuePlan {
  /** The local line's key (the lock key). */
  readonly lineKey: string;
  /** This process's own wake-up channel on this lock. */
  readonly channel: string;
  readonly owner: string;
  /** The strategy: a holder of this process queues our entry in its release only if it is of our kind. */
  readonly kind: string;
  /** Set when the strategy fences: the resource its holders draw tokens for. */
  readonly fencedResource?: string;
  readonly waitMs: number;
  readonly signal?: AbortSignal;
  /** The flow holds the lock here already: re-enter without queueing behind its own waiters. */
  readonly skipLine: boolean;
  reenter(): Promise<Attempt>;
  /** queue-acquire: take, claim, or queue and refresh the heartbeat; `queue` false: one attempt only. */
  attempt(queue: boolean): Promise<Attempt>;
  /** queue-claim: a release handed us the lock; true while it is still ours (its full lease set). */
  claim(): Promise<boolean>;
  /** Leave the Redis queue; a lock handed to us meanwhile passes on. */
  leave(): Promise<unknown>;
  /** Accept the lock straight from a holder of this process with the same kind of lock. */
  readonly handoff?: { readonly kind: string; readonly owner: string; readonly leaseMs: number };
  /** Whether another flow of this process holds the lock now. */
  heldHere?(): boolean;
}
