/** A place in a local line: `turn` resolves true at the head, false if the timeout came first. */
export interface QueuePlace {
  readonly turn: Promise<boolean>;
  /** Leave the line (at the head: hand the turn to the next). Idempotent. */
  leave(): void;
}

interface Waiter {
  readonly admit: (atHead: boolean) => void;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * FIFO lines per key, inside one process: only the head of a line contends in Redis, the rest
 * wait their turn here. That keeps the Redis traffic to one contender per process and makes the
 * order within a process fair.
 */
export class LocalQueue {
  private readonly lines = new Map<string, Waiter[]>();
  /** The holder's TTL the head last saw, per line: a fair Retry-After for those who time out queued. */
  private readonly seenTtls = new Map<string, { readonly ttlMs: number; readonly at: number }>();

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
    if (line.length === 1) waiter.admit(true);
    else {
      waiter.timer = setTimeout(() => {
        this.remove(key, waiter);
        waiter.admit(false);
      }, Math.max(0, timeoutMs));
    }
    return { turn, leave: () => this.remove(key, waiter) };
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
      this.lines.delete(key);
      this.seenTtls.delete(key);
      return;
    }
    if (index === 0) {
      const next = line[0];
      if (next.timer) clearTimeout(next.timer);
      next.timer = undefined;
      next.admit(true);
    }
  }
}
