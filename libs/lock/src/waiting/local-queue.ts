import { EntryOffers } from './entry-offers';
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

interface Waiter {
  readonly admit: (atHead: boolean) => void;
  timer?: ReturnType<typeof setTimeout>;
  slot?: HandoffSlot;
  timedOut?: boolean;
  /** Made on first ask. */
  expiry?: { readonly promise: Promise<void>; readonly resolve: () => void };
}

/** Consecutive local hand-offs before a real release lets the others in (a pass costs ~10 local grants' CPU). */
export const DEFAULT_HANDOFF_LIMIT = 64;

/** How long a run of hand-offs may last from its first, whatever the sections' length: the others' wait per turn. */
export const HANDOFF_WINDOW_MS = 100;

/** The most holds of one lock a process has in a row by default: one taken in Redis, then the hand-offs. */
export const DEFAULT_LONGEST_RUN = DEFAULT_HANDOFF_LIMIT + 1;

/**
 * FIFO lines per key, inside one process: only the head of a line contends in Redis, the rest
 * wait their turn here. That keeps the Redis traffic to one contender per process and makes the
 * order within a process fair.
 */
export class LocalQueue {
  private readonly lines = new Map<string, Waiter[]>();
  /** The entries heads offer a releasing holder of this process, to queue in its release. */
  readonly offers = new EntryOffers();
  /** The holder's TTL the head last saw, per line: a fair Retry-After for those who time out queued. */
  private readonly seenTtls = new Map<string, { readonly ttlMs: number; readonly at: number }>();
  /** Per line, the hand-offs in a row since this process last took the lock in Redis, and when the first was. */
  private readonly runs = new Map<string, { handoffs: number; readonly since: number }>();
  /** Lines whose holder released for real after its hand-offs: their head lets the others go first. */
  private readonly yielding = new Set<string>();
  /** Lines whose head left with the lock, until its hold is registered or let go. */
  private readonly taking = new Set<string>();
  /** Heads waiting for a holder of this process to let go, per line. */
  private readonly releaseWatchers = new Map<string, { promise: Promise<void>; resolve: () => void }>();

  /** `handoffLimit` 0 turns hand-offs off: every release goes through Redis. */
  constructor(
    readonly handoffLimit = DEFAULT_HANDOFF_LIMIT,
    private readonly handoffWindowMs = HANDOFF_WINDOW_MS,
  ) {}

  enter(key: string, timeoutMs: number): QueuePlace {
    let line = this.lines.get(key);
    if (!line) {
      line = [];
      this.lines.set(key, line);
    }
    let waiter!: Waiter;
    const turn = new Promise<boolean>((resolve) => {
      waiter = { admit: resolve };
    });
    line.push(waiter);
    // One timer for the whole wait: it takes a waiter not yet at the head out of the line, and
    // tells a head (which leaves by itself) that its time is up.
    waiter.timer = setTimeout(
      () => {
        waiter.timer = undefined;
        waiter.timedOut = true;
        waiter.expiry?.resolve();
        if (this.lines.get(key)?.[0] === waiter) return;
        this.remove(key, waiter);
        waiter.admit(false);
      },
      Math.max(0, timeoutMs),
    );
    if (line.length === 1) waiter.admit(true);
    return {
      turn,
      timedOut: () => waiter.timedOut === true,
      expired: () => {
        if (waiter.timedOut) return Promise.resolve();
        if (!waiter.expiry) {
          let resolve!: () => void;
          const promise = new Promise<void>((r) => (resolve = r));
          waiter.expiry = { promise, resolve };
        }
        return waiter.expiry.promise;
      },
      offer: (slot) => {
        if (this.lines.get(key)?.[0] === waiter) waiter.slot = slot;
      },
      leave: (holding) => {
        if (holding && this.lines.get(key)?.[0] === waiter) this.taking.add(key);
        this.remove(key, waiter);
      },
    };
  }

  /**
   * The head's hand-off slot for a holder of `kind` about to release, if it may hand off: the
   * head is open to it and the line's run has had neither `handoffLimit` hand-offs in a row nor
   * `handoffWindowMs` since its first (past either the holder releases for real, so the other
   * processes get their turn).
   */
  claimable(key: string, kind: string): HandoffSlot | undefined {
    const slot = this.lines.get(key)?.[0]?.slot;
    if (!slot || slot.kind !== kind || !slot.isOpen) return undefined;
    const run = this.runs.get(key);
    const inARow = run?.handoffs ?? 0;
    if (inARow >= this.handoffLimit || (run && performance.now() - run.since >= this.handoffWindowMs)) {
      this.runs.delete(key);
      this.yielding.add(key);
      return undefined;
    }
    return slot;
  }

  /** A holder handed the lock to the head of `key`'s line. */
  handedOff(key: string): void {
    const run = this.runs.get(key);
    if (run) run.handoffs += 1;
    else this.runs.set(key, { handoffs: 1, since: performance.now() }); // monotonic: a clock step cannot stretch a run
  }

  /**
   * This process's run on `key` is over: it took the lock in Redis (a new run starts there), or a
   * holder let it go for real with no hold of it left here. The count of hand-offs starts again.
   */
  runOver(key: string): void {
    this.runs.delete(key);
  }

  /** Resolves when a holder of this process next lets go of `key` (released, handed, or failed). */
  whenReleasedHere(key: string): Promise<void> {
    let watcher = this.releaseWatchers.get(key);
    if (!watcher) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      watcher = { promise, resolve };
      this.releaseWatchers.set(key, watcher);
    }
    return watcher.promise;
  }

  /** Whether a head of `key`'s line left with the lock and its hold is not registered yet. */
  isTaking(key: string): boolean {
    return this.taking.has(key);
  }

  /** The hold of the head that left with `key` is registered: the registry tells from now on. */
  holdRegistered(key: string): void {
    this.taking.delete(key);
  }

  /** A holder of this process let go of `key`. */
  releasedHere(key: string): void {
    this.taking.delete(key);
    this.releaseWatchers.get(key)?.resolve();
    this.releaseWatchers.delete(key);
  }

  /** True once after a release that ended a run of hand-offs: the head lets other processes go first. */
  takeYield(key: string): boolean {
    return this.yielding.delete(key);
  }

  /** The head reports the holder's remaining TTL it was told by Redis. */
  noteHolderTtl(key: string, ttlMs: number | undefined, now: number): void {
    if (ttlMs !== undefined && ttlMs > 0 && this.lines.has(key)) this.seenTtls.set(key, { ttlMs, at: now });
  }

  /** What is left of the last TTL the head saw, if any. */
  holderTtl(key: string, now: number): number | undefined {
    const seen = this.seenTtls.get(key);
    const left = seen && seen.ttlMs - (now - seen.at);
    return left !== undefined && left > 0 ? left : undefined;
  }

  /** How many are in the line for `key` (head included). */
  length(key: string): number {
    return this.lines.get(key)?.length ?? 0;
  }

  private remove(key: string, waiter: Waiter): void {
    const line = this.lines.get(key);
    const index = line?.indexOf(waiter) ?? -1;
    if (!line || index < 0) return;
    if (waiter.timer) clearTimeout(waiter.timer);
    line.splice(index, 1);
    if (line.length === 0) {
      // The hand-off count stays: the one who left may hold the lock, and its run goes on.
      this.lines.delete(key);
      this.seenTtls.delete(key);
      this.yielding.delete(key);
      return;
    }
    if (index === 0) line[0].admit(true);
  }
}
