import { deferred, type Deferred } from './deferred';
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

/**
 * One lock's line in this process, and what outlives its waiters while a hold of it goes on. One
 * object per lock, kept while any of it is in use: a hot lock's per-grant flags are field writes,
 * not entries added to and deleted from maps (a table that empties is reallocated when it shrinks).
 */
export interface Line {
  readonly key: string;
  readonly waiters: Place[];
  /** A head left with the lock, until its hold is registered or let go. */
  taking: boolean;
  /** The hand-offs in a row since this process last took the lock in Redis, and when the first was. */
  run?: { handoffs: number; readonly since: number };
  /** Its holder released for real after its hand-offs: the head lets the other processes go first. */
  yielding: boolean;
  /** The holder's TTL the head last saw: a fair Retry-After for those who time out queued. */
  seenTtl?: { readonly ttlMs: number; readonly at: number };
  /** Heads waiting for a holder of this process to let go. */
  watcher?: Deferred;
}

export function newLine(key: string): Line {
  return { key, waiters: [], taking: false, yielding: false };
}

/** Nothing of the line is in use: it may be forgotten. */
export function isIdle(line: Line): boolean {
  return line.waiters.length === 0 && !line.taking && !line.run && !line.watcher;
}

/** What a place needs of its queue. */
export interface LineKeeper {
  /** Takes `place` out of its line (the next one then heads it). */
  remove(place: Place): void;
}

/** A waiter's place in a line: one object per wait, its one timer included. */
export class Place implements QueuePlace {
  readonly turn: Promise<boolean>;
  /** Resolves `turn`. */
  admit!: (atHead: boolean) => void;
  timer?: ReturnType<typeof setTimeout>;
  slot?: HandoffSlot;
  private up = false;
  private expiry?: Deferred;

  /** When its time is up (`performance.now()`). */
  private readonly deadline: number;

  /** Made before the place joins `line`: one already there means it waits behind someone. */
  constructor(
    readonly line: Line,
    private readonly keeper: LineKeeper,
    timeoutMs: number,
  ) {
    this.turn = new Promise<boolean>((resolve) => (this.admit = resolve));
    this.deadline = performance.now() + timeoutMs;
    // One timer for the whole wait: it takes a waiter not yet at the head out of the line, and
    // tells a head (which leaves by itself) that its time is up. A place at the head at once sets
    // it only if asked (`expired`): an uncontended acquire sets none.
    if (line.waiters.length > 0) this.arm();
  }

  get atHead(): boolean {
    return this.line.waiters[0] === this;
  }

  timedOut(): boolean {
    return this.up;
  }

  expired(): Promise<void> {
    if (this.up) return Promise.resolve();
    if (!this.timer) this.arm();
    this.expiry ??= deferred();
    return this.expiry.promise;
  }

  offer(slot: HandoffSlot): void {
    if (this.atHead) this.slot = slot;
  }

  leave(holding?: boolean): void {
    if (holding && this.atHead) this.line.taking = true;
    this.keeper.remove(this);
  }

  /** The timer fired. */
  timeIsUp(): void {
    this.timer = undefined;
    this.up = true;
    this.expiry?.resolve();
    if (this.atHead) return;
    this.keeper.remove(this);
    this.admit(false);
  }

  private arm(): void {
    const ms = this.deadline - performance.now();
    if (ms > MAX_TIMER_MS) return; // never, as far as a timer can tell (Node would fire a longer one at once)
    this.timer = setTimeout(timeIsUp, Math.max(0, ms), this);
  }
}

/** The longest delay Node's timers take. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function timeIsUp(place: Place): void {
  place.timeIsUp();
}
