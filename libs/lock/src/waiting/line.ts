/** How a waiter's turn in its line came. */
export type Turn =
  /** First in line: the front, which alone waits in Redis (the fair queue, or retries). */
  | { readonly by: 'front' }
  /** A holder of this process handed it the lock, and Redis confirmed it. */
  | { readonly by: 'handoff'; readonly fenceToken?: number; readonly validUntil?: number }
  /** No time to wait behind the front (a wait of 0): one attempt of its own, outside the line. */
  | { readonly by: 'once' }
  /** Its wait ran out in the line; `holderTtlMs` is what the front last saw of the holder's lease. */
  | { readonly by: 'timeout'; readonly holderTtlMs?: number }
  /** Its `signal` was aborted in the line. */
  | { readonly by: 'abort' };

/** A waiter in a line, as a holder handing the lock to it sees it. */
export interface Taker {
  readonly strategy: string;
  readonly owner: string;
  readonly leaseMs: number;
}

interface Waiter extends Taker {
  readonly deadline: number;
  readonly signal?: AbortSignal;
  /** A holder is handing it the lock: its timer and signal wait for the outcome. */
  taken: boolean;
  settle(turn: Turn): void;
}

/** One lock's line in this process. */
interface Line {
  readonly waiters: Waiter[];
  /** Hand-offs in a row since the lock was last taken in Redis. */
  handoffs: number;
  /** The holder's lease as the front last saw it, and when (performance.now()). */
  holderTtl?: { readonly ms: number; readonly at: number };
}

const FRONT: Turn = { by: 'front' };
const ONCE: Turn = { by: 'once' };

/**
 * The per-lock FIFO of one process. Only its front waits in Redis or holds the lock; the others
 * wait here, each with its own timer and signal. A holder may hand the lock straight to the next
 * waiter (`takeNext`, then `handedTo` or `putBack`), at most `handoffLimit` times in a row, so the
 * other processes get their turn; `pass` lets the next waiter become the front.
 */
export class Lines {
  private readonly lines = new Map<string, Line>();

  constructor(readonly handoffLimit: number) {}

  /**
   * Waits for a turn in `key`'s line until `deadline` (performance.now()): at once the front when
   * nobody is ahead; with the deadline already past, one attempt outside the line.
   */
  join(key: string, taker: Taker, deadline: number, signal?: AbortSignal): Promise<Turn> {
    if (signal?.aborted) return Promise.resolve({ by: 'abort' });
    const line = this.lines.get(key);
    if (!line) {
      this.lines.set(key, { waiters: [], handoffs: 0 });
      return Promise.resolve(FRONT);
    }
    const waitMs = deadline - performance.now();
    if (waitMs <= 0) return Promise.resolve(ONCE);
    return new Promise((resolve) => {
      let settled = false;
      const expire = () => {
        if (waiter.taken) return; // the hand-off's outcome settles it
        line.waiters.splice(line.waiters.indexOf(waiter), 1);
        waiter.settle(signal?.aborted ? { by: 'abort' } : timedOut(line));
      };
      const timer = Number.isFinite(waitMs) ? setTimeout(expire, waitMs) : undefined;
      const waiter: Waiter = {
        ...taker,
        deadline,
        signal,
        taken: false,
        settle: (turn) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal?.removeEventListener('abort', expire);
          resolve(turn);
        },
      };
      signal?.addEventListener('abort', expire, { once: true });
      line.waiters.push(waiter);
    });
  }

  /** How many wait behind `key`'s front in this process. */
  waiting(key: string): number {
    return this.lines.get(key)?.waiters.length ?? 0;
  }

  /** The front saw the holder's lease (ms) just now, or none: waiters that time out in the line report it. */
  noteHolderTtl(key: string, ms: number | undefined): void {
    const line = this.lines.get(key);
    if (line) line.holderTtl = ms === undefined ? undefined : { ms, at: performance.now() };
  }

  /** The front let go of `key` (released for real, or gave up): the next waiter becomes the front. */
  pass(key: string): void {
    const line = this.lines.get(key);
    if (!line) return;
    line.handoffs = 0;
    const next = line.waiters.shift();
    if (next) next.settle(FRONT);
    else this.lines.delete(key);
  }

  /**
   * The next waiter, if a holder of `strategy` may hand `key` to it now: of the same strategy, and
   * fewer than `handoffLimit` hand-offs in a row so far. It leaves the line; `handedTo` or `putBack` must follow.
   */
  takeNext(key: string, strategy: string): Taker | undefined {
    const line = this.lines.get(key);
    const next = line?.waiters[0];
    if (!line || !next || next.strategy !== strategy || line.handoffs >= this.handoffLimit) return undefined;
    line.waiters.shift();
    next.taken = true;
    return next;
  }

  /** Redis confirmed the hand-off: `taker` holds the lock, one more hand-off in a row. */
  handedTo(key: string, taker: Taker, turn: Turn & { by: 'handoff' }): void {
    const line = this.lines.get(key);
    if (line) line.handoffs += 1;
    (taker as Waiter).settle(turn);
  }

  /** Redis refused the hand-off: `taker` is first in line again, unless its wait ended meanwhile. */
  putBack(key: string, taker: Taker): void {
    const waiter = taker as Waiter;
    const line = this.lines.get(key)!;
    waiter.taken = false;
    if (waiter.signal?.aborted) waiter.settle({ by: 'abort' });
    else if (performance.now() >= waiter.deadline) waiter.settle(timedOut(line));
    else line.waiters.unshift(waiter);
  }
}

function timedOut(line: Line): Turn {
  const seen = line.holderTtl;
  if (!seen || seen.ms <= 0) return { by: 'timeout' };
  return { by: 'timeout', holderTtlMs: Math.max(1, Math.round(seen.ms - (performance.now() - seen.at))) };
}
