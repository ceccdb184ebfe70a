/** A lock this process holds right now, as one `run` call sees it. */
export interface Hold {
  readonly strategy: string;
  readonly lockKey: string;
  readonly owner: string;
  /** Aborted (with LockLostError) once the lock is known lost. */
  readonly lost: AbortController;
  /** Releases in Redis once; later calls share the first one's promise. */
  release(): Promise<void>;
}

/**
 * Every hold of this process: reentrant strategies ask whether a flow already holds a key (so a
 * nested acquire skips the local line), the watchdog aborts every hold of a lost lock, and
 * graceful shutdown releases them all.
 */
export class HeldLocks {
  /**
   * By lock key. A key's array stays when it empties (a hot lock's holds come and go on every
   * grant, and a map that empties is reallocated); the empty ones are dropped in bulk.
   */
  private readonly byKey = new Map<string, Hold[]>();
  private count = 0;
  private empties = 0;

  add(hold: Hold): void {
    const holds = this.byKey.get(hold.lockKey);
    if (!holds) this.byKey.set(hold.lockKey, [hold]);
    else {
      if (holds.length === 0) this.empties -= 1;
      holds.push(hold);
    }
    this.count += 1;
  }

  delete(hold: Hold): void {
    const holds = this.byKey.get(hold.lockKey);
    const index = holds?.indexOf(hold) ?? -1;
    if (!holds || index < 0) return;
    holds.splice(index, 1);
    this.count -= 1;
    if (holds.length === 0 && ++this.empties > MAX_EMPTY_KEYS) this.dropEmpties();
  }

  of(lockKey: string, owner: string): Hold[] {
    return (this.byKey.get(lockKey) ?? []).filter((hold) => hold.owner === owner);
  }

  /** Whether some flow of this process holds `lockKey`. */
  has(lockKey: string): boolean {
    return (this.byKey.get(lockKey)?.length ?? 0) > 0;
  }

  all(): Hold[] {
    return [...this.byKey.values()].flat();
  }

  get size(): number {
    return this.count;
  }

  private dropEmpties(): void {
    for (const [key, holds] of this.byKey) if (holds.length === 0) this.byKey.delete(key);
    this.empties = 0;
  }
}

/** Keys with no hold kept at most, before they are dropped together. */
const MAX_EMPTY_KEYS = 64;
