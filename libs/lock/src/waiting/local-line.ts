import type { HandoffSlot } from './handoff-slot';

/** A place in a local line: `turn` resolves true at the head, false if the timeout came first. */
export interface QueuePlace {
  readonly turn: Promise<boolean>;
  /** Settles when the place's time is up, at the head too: the one timer of the whole wait. */
  expired(): Promise<void>;
  /** Whether that time is up. */
  timedOut(): boolean;
  /** At the head: let a holder of this process hand its lock straight to us. */
  offer(slot: HandoffSlot): void;
  /**
   * Leave the line (at the head: hand the turn to the next). Idempotent. `holding`: we leave with
   * the lock, so the next head sees it held here before our hold is even registered.
   */
  leave(holding?: boolean): void;
}

export interface Waiter {
  readonly admit: (atHead: boolean) => void;
  timer?: ReturnType<typeof setTimeout>;
  slot?: HandoffSlot;
  timedOut?: boolean;
  /** Made on first ask. */
  expiry?: { readonly promise: Promise<void>; readonly resolve: () => void };
}

/**
 * One lock's line in this process, and what outlives its waiters while a hold of it goes on. One
 * object per lock, kept while any of it is in use: a hot lock's per-grant flags are field writes,
 * not entries added to and deleted from maps (a table that empties is reallocated when it shrinks).
 */
export interface Line {
  readonly waiters: Waiter[];
  /** A head left with the lock, until its hold is registered or let go. */
  taking: boolean;
  /** The hand-offs in a row since this process last took the lock in Redis, and when the first was. */
  run?: { handoffs: number; readonly since: number };
  /** Its holder released for real after its hand-offs: the head lets the other processes go first. */
  yielding: boolean;
  /** The holder's TTL the head last saw: a fair Retry-After for those who time out queued. */
  seenTtl?: { readonly ttlMs: number; readonly at: number };
  /** Heads waiting for a holder of this process to let go. */
  watcher?: { readonly promise: Promise<void>; readonly resolve: () => void };
}

/** Settles when the waiter's time is up (at once if it is): made on first ask. */
export function expiryOf(waiter: Waiter): Promise<void> {
  if (waiter.timedOut) return Promise.resolve();
  if (!waiter.expiry) {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    waiter.expiry = { promise, resolve };
  }
  return waiter.expiry.promise;
}

export function newLine(): Line {
  return { waiters: [], taking: false, yielding: false };
}

/** Nothing of the line is in use: it may be forgotten. */
export function isIdle(line: Line): boolean {
  return line.waiters.length === 0 && !line.taking && !line.run && !line.watcher;
}
