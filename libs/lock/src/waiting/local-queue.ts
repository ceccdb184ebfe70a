import { deferred } from './deferred';
import { EntryOffers } from './entry-offers';
import type { HandoffSlot } from './handoff-slot';
import { isIdle, newLine, Place, type Line, type LineKeeper, type QueuePlace } from './local-line';

export type { QueuePlace } from './local-line';

/** Consecutive local hand-offs before a real release lets the others in (a pass costs the CPU of many local grants). */
export const DEFAULT_HANDOFF_LIMIT = 256;

/**
 * How long a run of hand-offs may last from its first, whatever the sections' length: the others'
 * wait per turn. A waiter of three processes waits out about two other runs and the hand-offs
 * between them, so 60 ms keeps that within the 200 ms the micro-bench asks where runs are cut by
 * the window (a slow machine's, or slow sections').
 */
export const HANDOFF_WINDOW_MS = 60;

/** The most holds of one lock a process has in a row by default: one taken in Redis, then the hand-offs. */
export const DEFAULT_LONGEST_RUN = DEFAULT_HANDOFF_LIMIT + 1;

/**
 * FIFO lines per key, inside one process: only the head of a line contends in Redis, the rest
 * wait their turn here. That keeps the Redis traffic to one contender per process and makes the
 * order within a process fair.
 */
export class LocalQueue implements LineKeeper {
  private readonly lines = new Map<string, Line>();
  /** The entries heads offer a releasing holder of this process, to queue in its release. */
  readonly offers = new EntryOffers();

  /** `handoffLimit` 0 turns hand-offs off: every release goes through Redis. */
  constructor(
    readonly handoffLimit = DEFAULT_HANDOFF_LIMIT,
    private readonly handoffWindowMs = HANDOFF_WINDOW_MS,
  ) {}

  enter(key: string, timeoutMs: number): QueuePlace {
    const line = this.lineOf(key);
    const place = new Place(line, this, timeoutMs);
    line.waiters.push(place);
    if (line.waiters.length === 1) place.admit(true);
    return place;
  }

  /**
   * The head's hand-off slot for a holder of `kind` about to release, if it may hand off: the
   * head is open to it and the line's run has had neither `handoffLimit` hand-offs in a row nor
   * `handoffWindowMs` since its first (past either the holder releases for real, so the other
   * processes get their turn).
   */
  claimable(key: string, kind: string): HandoffSlot | undefined {
    const line = this.lines.get(key);
    const slot = line?.waiters[0]?.slot;
    if (!line || !slot || slot.kind !== kind || !slot.isOpen) return undefined;
    const run = line.run;
    const inARow = run?.handoffs ?? 0;
    if (inARow >= this.handoffLimit || (run && performance.now() - run.since >= this.handoffWindowMs)) {
      line.run = undefined;
      line.yielding = true;
      return undefined;
    }
    return slot;
  }

  /** A holder handed the lock to the head of `key`'s line. */
  handedOff(key: string): void {
    const line = this.lineOf(key);
    if (line.run) line.run.handoffs += 1;
    else line.run = { handoffs: 1, since: performance.now() }; // monotonic: a clock step cannot stretch a run
  }

  /**
   * This process's run on `key` is over: it took the lock in Redis (a new run starts there), or a
   * holder let it go for real with no hold of it left here. The count of hand-offs starts again.
   */
  runOver(key: string): void {
    const line = this.lines.get(key);
    if (!line?.run) return;
    line.run = undefined;
    this.forgetIfIdle(line);
  }

  /** Resolves when a holder of this process next lets go of `key` (released, handed, or failed). */
  whenReleasedHere(key: string): Promise<void> {
    const line = this.lineOf(key);
    line.watcher ??= deferred();
    return line.watcher.promise;
  }

  /** Whether a head of `key`'s line left with the lock and its hold is not registered yet. */
  isTaking(key: string): boolean {
    return this.lines.get(key)?.taking === true;
  }

  /** The hold of the head that left with `key` is registered: the registry tells from now on. */
  holdRegistered(key: string): void {
    const line = this.lines.get(key);
    if (!line?.taking) return;
    line.taking = false;
    this.forgetIfIdle(line);
  }

  /** A holder of this process let go of `key`. */
  releasedHere(key: string): void {
    const line = this.lines.get(key);
    if (!line) return;
    line.taking = false;
    const watcher = line.watcher;
    line.watcher = undefined;
    watcher?.resolve();
    this.forgetIfIdle(line);
  }

  /** True once after a release that ended a run of hand-offs: the head lets other processes go first. */
  takeYield(key: string): boolean {
    const line = this.lines.get(key);
    if (!line?.yielding) return false;
    line.yielding = false;
    return true;
  }

  /** The head reports the holder's remaining TTL it was told by Redis. */
  noteHolderTtl(key: string, ttlMs: number | undefined, now: number): void {
    const line = this.lines.get(key);
    if (ttlMs !== undefined && ttlMs > 0 && line && line.waiters.length > 0) line.seenTtl = { ttlMs, at: now };
  }

  /** What is left of the last TTL the head saw, if any. */
  holderTtl(key: string, now: number): number | undefined {
    const seen = this.lines.get(key)?.seenTtl;
    const left = seen && seen.ttlMs - (now - seen.at);
    return left !== undefined && left > 0 ? left : undefined;
  }

  /** How many are in the line for `key` (head included). */
  length(key: string): number {
    return this.lines.get(key)?.waiters.length ?? 0;
  }

  /** Takes `place` out of its line (LineKeeper): the next one then heads it. */
  remove(place: Place): void {
    const { line } = place;
    const index = line.waiters.indexOf(place);
    if (index < 0) return;
    if (place.timer) clearTimeout(place.timer);
    line.waiters.splice(index, 1);
    if (line.waiters.length === 0) {
      // The hand-off count stays: the one who left may hold the lock, and its run goes on.
      line.seenTtl = undefined;
      line.yielding = false;
      this.forgetIfIdle(line);
      return;
    }
    if (index === 0) line.waiters[0].admit(true);
  }

  private lineOf(key: string): Line {
    let line = this.lines.get(key);
    if (!line) {
      line = newLine(key);
      this.lines.set(key, line);
    }
    return line;
  }

  private forgetIfIdle(line: Line): void {
    if (!isIdle(line) || this.lines.get(line.key) !== line) return;
    this.lines.delete(line.key);
    this.offers.forget(line.key);
  }
}
