import type { LossSignal } from './loss-signal';

/** A lock this process holds right now, as one `run` call sees it. */
export interface Hold {
  readonly strategy: string;
  readonly lockKey: string;
  readonly owner: string;
  /** Aborted (with LockLostError) once the lock is known lost. */
  readonly loss: LossSignal;
  /** Releases in Redis once; later calls share the first one's promise. */
  release(): Promise<void>;
}

/**
 * Every hold of this process: reentrant strategies ask whether a flow already holds a key (so a
 * nested acquire skips the local line), the watchdog aborts every hold of a lost lock, and
 * graceful shutdown releases them all.
 */
export class HeldLocks {
  private readonly holds = new Set<Hold>();

  add(hold: Hold): void {
    this.holds.add(hold);
  }

  delete(hold: Hold): void {
    this.holds.delete(hold);
  }

  of(lockKey: string, owner: string): Hold[] {
    return [...this.holds].filter((hold) => hold.lockKey === lockKey && hold.owner === owner);
  }

  /** Whether some flow of this process holds `lockKey`. */
  has(lockKey: string): boolean {
    for (const hold of this.holds) if (hold.lockKey === lockKey) return true;
    return false;
  }

  all(): Hold[] {
    return [...this.holds];
  }

  get size(): number {
    return this.holds.size;
  }
}
