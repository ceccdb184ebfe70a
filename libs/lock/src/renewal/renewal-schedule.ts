/**
 * When each held lock is next due for renewal. Pure bookkeeping (the clock is passed in), so the
 * one renewer per process can serve every lock from a single timer.
 */
export class RenewalSchedule {
  private readonly entries = new Map<string, { readonly intervalMs: number; dueAt: number }>();

  add(id: string, intervalMs: number, now: number): void {
    this.entries.set(id, { intervalMs, dueAt: now + intervalMs });
  }

  remove(id: string): void {
    this.entries.delete(id);
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The ids due at `now`; each is rescheduled one interval from now. */
  takeDue(now: number): string[] {
    const due: string[] = [];
    for (const [id, entry] of this.entries) {
      if (entry.dueAt > now) continue;
      due.push(id);
      entry.dueAt = now + entry.intervalMs;
    }
    return due;
  }

  /** The earliest due time, or undefined when nothing is scheduled. */
  nextDueAt(): number | undefined {
    let next: number | undefined;
    for (const { dueAt } of this.entries.values()) if (next === undefined || dueAt < next) next = dueAt;
    return next;
  }

  clear(): void {
    this.entries.clear();
  }
}
