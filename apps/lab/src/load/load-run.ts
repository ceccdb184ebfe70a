import { setTimeout as sleep } from 'node:timers/promises';
import { REDIS_COUNTER_STRATEGIES } from '@app/contract';
import type { ApiClient, Coupon, GrabAnswer, GrabOptions, LoadEvent, LoadRequest } from '@app/contract';
import { AnswerCounter } from './answer-tally';
import type { RedisStockProbe } from './redis-stock-probe';
import { RoomBuyers } from './room-buyers';

/** Buyers at once (grabbing, or in the room): beyond a browser's six connections, bounded for the lab's sockets. */
const MAX_IN_FLIGHT = 200;
/** How often the page hears the stock and the new grant rows. */
const POLL_MS = 150;
/** How long a load waits, after its buyers, for accepted orders to be persisted before its audit. */
const DRAIN_TIMEOUT_MS = 30_000;

/** Where a load's grabs go: nginx, or one replica directly (a fault aimed at it). */
export interface LoadClients {
  readonly nginx: ApiClient;
  replica(id: string): ApiClient;
  readonly replicaIds: readonly string[];
  /** Redis's stock, for strategies that keep a counter there. */
  readonly redisStock: RedisStockProbe;
}

/**
 * One load: a fresh coupon, `buyers` distinct users grabbing it through nginx (through its room first, if it has
 * one), the stock and grant rows polled while they run (and Redis's counter, where the strategy keeps one), and the
 * audit at the end, once accepted orders are persisted. Faults join it while it runs.
 */
export class LoadRun {
  private readonly counter = new AnswerCounter();
  private readonly seen = new Set<string>();
  /** Buyers answered 202: each order must end as a grant row. */
  private readonly accepted = new Set<string>();
  private readonly faults = new Set<Promise<unknown>>();
  private readonly runId = Date.now().toString(36);
  private coupon?: Coupon;
  private sentCount = 0;
  private readonly redisCounter: boolean;
  /** With a room: the buyers go through it, and their states come with each progress. */
  private room?: RoomBuyers;

  constructor(
    private readonly clients: LoadClients,
    readonly request: LoadRequest,
    private readonly signal: AbortSignal,
    private readonly emit: (event: LoadEvent) => void,
  ) {
    this.redisCounter = (REDIS_COUNTER_STRATEGIES as readonly string[]).includes(request.strategy);
  }

  get couponId(): number | undefined {
    return this.coupon?.id;
  }

  get sent(): number {
    return this.sentCount;
  }

  get cancelled(): boolean {
    return this.signal.aborted;
  }

  async run(): Promise<void> {
    const { strategy, stock, workMs, room } = this.request;
    this.signal.throwIfAborted();
    this.coupon = await this.clients.nginx.createCoupon({ name: `lab ${strategy} ${this.runId}`, stock, room });
    const couponId = this.coupon.id;
    const sink = (userId: string, answer: GrabAnswer) => this.count(userId, answer);
    if (room) this.room = new RoomBuyers(this.clients.nginx, couponId, { strategy, workMs }, this.signal, sink);
    this.emit({
      type: 'started',
      couponId,
      request: this.request,
      replicas: this.clients.replicaIds,
      redisCounter: this.redisCounter,
    });
    const started = Date.now();
    // The first reading before any buyer: the page's lines start at the full stock, not wherever the first poll lands.
    await this.progress(couponId);
    let sending = true;
    let drained: boolean | undefined;
    const polling = this.pollWhile(() => sending);
    try {
      await this.sendBuyers(couponId);
      // A fault still at work (a stalled holder, a restarting database) belongs to this run.
      while (this.faults.size && !this.signal.aborted) await Promise.allSettled([...this.faults]);
      // Accepted (202) orders become grant rows later: the audit waits for them, the polling shows them land.
      if (strategy === 'redis-stream')
        drained = await this.clients.redisStock.drain(couponId, DRAIN_TIMEOUT_MS, this.signal).catch(() => false);
    } finally {
      sending = false;
      await polling;
    }
    this.signal.throwIfAborted();
    await this.progress(couponId);
    const audit = await this.clients.nginx.audit(couponId);
    const withoutGrant = [...this.accepted].filter((userId) => !this.seen.has(userId)).length;
    this.emit({
      type: 'done',
      couponId,
      audit,
      sent: this.sentCount,
      answered: this.counter.answered,
      answers: this.counter.snapshot(),
      elapsedMs: Date.now() - started,
      ...(drained !== undefined && { orders: { accepted: this.accepted.size, withoutGrant, drained } }),
    });
  }

  /** One more grab into this load (a fault's), counted with the buyers' answers. */
  faultGrab(tag: string, options: GrabOptions, via: string): Promise<GrabAnswer> {
    const couponId = this.couponId;
    if (couponId === undefined) throw new Error('the load has no coupon yet');
    const userId = `lab-${this.runId}-${tag}`;
    const answer = this.clients
      .replica(via)
      .grab(couponId, userId, { strategy: this.request.strategy, ...options }, this.signal)
      .then((a) => {
        this.count(userId, a);
        return a;
      });
    this.track(answer);
    return answer;
  }

  /** Keeps the run open until `work` (a fault) has ended. */
  track(work: Promise<unknown>): void {
    const settled: Promise<unknown> = work.then(
      () => this.faults.delete(settled),
      () => this.faults.delete(settled),
    );
    this.faults.add(settled);
  }

  /** A fault as a tick on the lanes. */
  mark(fault: Extract<LoadEvent, { type: 'fault' }>['fault'], lane: string, detail: string): void {
    this.emit({ type: 'fault', fault, lane, detail, at: Date.now() });
  }

  private async sendBuyers(couponId: number): Promise<void> {
    const { buyers, strategy, workMs } = this.request;
    let next = 0;
    const worker = async () => {
      while (next < buyers && !this.signal.aborted) {
        next += 1;
        this.sentCount += 1;
        const userId = `lab-${this.runId}-${next}`;
        if (this.room) await this.room.buy(userId);
        else this.count(userId, await this.clients.nginx.grab(couponId, userId, { strategy, workMs }, this.signal));
      }
    };
    await Promise.all(Array.from({ length: Math.min(buyers, MAX_IN_FLIGHT) }, worker));
  }

  private count(userId: string, answer: GrabAnswer): void {
    if (this.signal.aborted) return;
    this.counter.add(answer);
    if (answer.status === 202) this.accepted.add(userId);
  }

  private async pollWhile(running: () => boolean): Promise<void> {
    const couponId = this.couponId!;
    while (running() && !this.signal.aborted) {
      // PostgreSQL may be down on purpose (a fault): that tick is skipped, the next one catches up.
      await this.progress(couponId).catch(() => undefined);
      await sleep(POLL_MS, undefined, { signal: this.signal }).catch(() => undefined);
    }
  }

  /**
   * Redis's counter, read after the stock of record: a unit leaves Redis before its row is written,
   * so read in this order Redis never shows more than the record. Redis may be down on purpose (a
   * fault): that tick has no Redis figure.
   */
  private async redisStock(): Promise<number | null | undefined> {
    if (!this.redisCounter) return undefined;
    return this.clients.redisStock.counter(this.couponId!).catch(() => undefined);
  }

  private async progress(couponId: number): Promise<void> {
    const [{ coupon, redisStock }, grants] = await Promise.all([
      this.clients.nginx.coupon(couponId).then(async (coupon) => ({ coupon, redisStock: await this.redisStock() })),
      this.clients.nginx.grants(couponId),
    ]);
    const fresh = grants.filter((g) => !this.seen.has(g.userId));
    for (const grant of fresh) this.seen.add(grant.userId);
    this.emit({
      type: 'progress',
      at: Date.now(),
      sent: this.sentCount,
      answered: this.counter.answered,
      stock: coupon.stock,
      ...(redisStock === undefined ? {} : { redisStock }),
      answers: this.counter.snapshot(),
      grants: fresh,
      ...(this.room && { room: this.room.snapshot() }),
    });
  }
}
