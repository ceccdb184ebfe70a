/** What one statement made of one queued request. */
export type BatchOutcome<A> =
  | { readonly kind: 'answer'; readonly value: A }
  | { readonly kind: 'error'; readonly error: unknown }
  /** The statement could not judge it (its slot went to a grant that turned out a duplicate): queue again. */
  | { readonly kind: 'retry' };

/** One statement over a key's batch: one outcome per request, in the batch's order. */
export type BatchStatement<K, Q, A> = (key: K, requests: readonly Q[]) => Promise<BatchOutcome<A>[]>;

interface Waiter<Q, A> {
  readonly request: Q;
  /** Called when a batch takes the request, before its statement runs (a chaos crash point). */
  readonly onTaken?: () => void;
  readonly resolve: (value: A) => void;
  readonly reject: (error: unknown) => void;
}

interface Lane<Q, A> {
  queue: Waiter<Q, A>[];
  busy: boolean;
}

/**
 * Coalesces requests per key (a coupon) within one process: while a key's statement is in flight,
 * requests queue; the next statement takes the whole queue (up to `maxBatch`). Each caller's
 * promise settles only once the statement that judged it has settled, so an answer never comes
 * before its commit. One statement per key at a time; keys run independently.
 */
export class CouponBatcher<K, Q, A> {
  private readonly lanes = new Map<K, Lane<Q, A>>();

  constructor(
    private readonly statement: BatchStatement<K, Q, A>,
    private readonly maxBatch = 256,
  ) {
    if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new RangeError(`maxBatch must be ≥ 1, got ${maxBatch}`);
  }

  submit(key: K, request: Q, onTaken?: () => void): Promise<A> {
    return new Promise<A>((resolve, reject) => {
      let lane = this.lanes.get(key);
      if (!lane) this.lanes.set(key, (lane = { queue: [], busy: false }));
      lane.queue.push({ request, onTaken, resolve, reject });
      if (!lane.busy) void this.drain(key, lane);
    });
  }

  /** Requests waiting for a statement, and whether one is in flight (for tests and metrics). */
  state(key: K): { readonly queued: number; readonly inFlight: boolean } {
    const lane = this.lanes.get(key);
    return { queued: lane?.queue.length ?? 0, inFlight: lane?.busy ?? false };
  }

  private async drain(key: K, lane: Lane<Q, A>): Promise<void> {
    lane.busy = true;
    try {
      while (lane.queue.length > 0) {
        const batch = lane.queue.splice(0, this.maxBatch);
        const retry = await this.runBatch(key, batch);
        // Unjudged requests go first next time: they were there before the newcomers.
        if (retry.length > 0) lane.queue.unshift(...retry);
      }
    } finally {
      lane.busy = false;
      if (lane.queue.length === 0) this.lanes.delete(key);
    }
  }

  /** Runs one statement and settles its batch; returns the requests to queue again. */
  private async runBatch(key: K, batch: Waiter<Q, A>[]): Promise<Waiter<Q, A>[]> {
    let outcomes: BatchOutcome<A>[];
    try {
      for (const w of batch) w.onTaken?.();
      outcomes = await this.statement(
        key,
        batch.map((w) => w.request),
      );
      if (outcomes.length !== batch.length)
        throw new Error(`a batch statement answered ${outcomes.length} outcomes for ${batch.length} requests`);
    } catch (error) {
      for (const w of batch) w.reject(error);
      return [];
    }
    const retry: Waiter<Q, A>[] = [];
    outcomes.forEach((outcome, i) => {
      const w = batch[i];
      if (outcome.kind === 'answer') w.resolve(outcome.value);
      else if (outcome.kind === 'error') w.reject(outcome.error);
      else retry.push(w);
    });
    return retry;
  }
}
