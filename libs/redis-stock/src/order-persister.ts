import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { OrdersPersisted, StreamOrder } from '@app/stock';
import { defineOrderCommands, orderKeys, PERSISTERS_GROUP } from './order-commands';
import { claimStale, giveUpSuperseded, readNew, settle, stalePending, type OrderEntry } from './order-stream-verbs';

/** The database side of a persister. */
export interface OrderLedger {
  /** Writes a batch of one coupon's orders as grants, in one statement (one commit). */
  persist(couponId: number, orders: readonly StreamOrder[]): Promise<OrdersPersisted>;
  /** True when the database answers: a persister reclaims others' orders only then. */
  reachable(): Promise<boolean>;
}

export interface PersisterOptions {
  /** This persister's consumer name in every stream's group (the replica's id). */
  readonly consumer: string;
  /** Orders one statement writes at most. */
  readonly batchSize: number;
  /** An order pending longer than this is reclaimed by any persister (its consumer died or failed it). */
  readonly reclaimIdleMs: number;
  /** An order delivered this many times without being persisted goes to the dead letters. */
  readonly maxDeliveries: number;
  /** The pause after a round that found nothing. */
  readonly pollMs: number;
  /** How often the streams are looked for (another replica's accepts, streams left by a crash). */
  readonly discoverEveryMs: number;
}

export interface PersisterHooks {
  /** The coupons that have an order stream now. */
  discover(): Promise<number[]>;
  /** After a commit, before the acknowledgement, for freshly read orders (the after-commit crash point). */
  afterCommit?(crashPoints: readonly string[]): void;
  persisted?(grants: number): void;
  deadLettered?(orders: number): void;
  failed?(error: unknown): void;
}

export const DEFAULT_PERSISTER: Omit<PersisterOptions, 'consumer'> = Object.freeze({
  batchSize: 256,
  reclaimIdleMs: 5000,
  maxDeliveries: 5,
  pollMs: 20,
  discoverEveryMs: 1000,
});

/** A stream found empty this long is deleted (when still empty) and forgotten until it is found again. */
const FORGET_AFTER_MS = 10_000;

/**
 * One consumer of every coupon's order stream (redis-stream); every replica runs one. A batch is
 * written in one statement, committed, and only then acknowledged, so a persister that dies
 * mid-batch leaves its orders pending: any persister claims them once idle `reclaimIdleMs`, and a
 * redelivered order finds its grant by order id rather than making a second one. Orders that keep
 * failing go to the coupon's dead-letter stream.
 */
export class OrderPersister {
  /** Coupon → when its stream last gave an order. */
  private readonly streams = new Map<number, number>();
  private running?: Promise<void>;
  private stopped = false;
  private wake?: () => void;
  private nextDiscoverAt = 0;
  private nextReclaimAt = 0;
  private databaseDown = false;

  constructor(
    private readonly redis: Redis,
    private readonly ledger: OrderLedger,
    private readonly options: PersisterOptions,
    private readonly hooks: PersisterHooks,
  ) {
    defineOrderCommands(redis);
  }

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
  }

  /** A coupon with an order just accepted here: read at once, not at the next discovery. */
  watch(couponId: number): void {
    if (!this.streams.has(couponId)) this.streams.set(couponId, Date.now());
    this.wake?.();
  }

  /** One round over every known stream; true when it persisted something. Public for specs. */
  async round(): Promise<boolean> {
    const now = Date.now();
    if (now >= this.nextDiscoverAt) {
      this.nextDiscoverAt = now + this.options.discoverEveryMs;
      for (const couponId of await this.hooks.discover())
        if (!this.streams.has(couponId)) this.streams.set(couponId, now);
    }
    if (this.databaseDown) {
      if (!(await this.ledger.reachable())) return false;
      this.databaseDown = false;
    }
    let worked = false;
    for (const couponId of [...this.streams.keys()]) worked = (await this.readStream(couponId)) || worked;
    // With no stream known, the database is not asked anything: the other strategies share its pool.
    if (now >= this.nextReclaimAt && this.streams.size > 0) {
      this.nextReclaimAt = now + this.options.reclaimIdleMs / 4;
      if (await this.ledger.reachable()) for (const couponId of [...this.streams.keys()]) await this.reclaim(couponId);
    }
    return worked;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      let worked = false;
      let failed = false;
      try {
        worked = await this.round();
      } catch (error) {
        failed = true;
        this.hooks.failed?.(error);
      }
      // Redis or the database down: retry at a calmer pace than the idle poll.
      if (!worked && !this.stopped) await this.pause(failed || this.databaseDown ? 250 : this.options.pollMs);
    }
  }

  private async pause(ms: number): Promise<void> {
    const woken = new Promise<void>((resolve) => (this.wake = resolve));
    await Promise.race([sleep(ms), woken]);
    this.wake = undefined;
  }

  private async readStream(couponId: number): Promise<boolean> {
    const stream = orderKeys(couponId).orders;
    const fresh = await readNew(this.redis, stream, this.options.consumer, this.options.batchSize);
    if (fresh === null) {
      this.streams.delete(couponId);
      return false;
    }
    if (fresh.length === 0) {
      if (Date.now() - this.streams.get(couponId)! > FORGET_AFTER_MS) {
        if (await this.redis.orderDropEmpty(stream)) this.streams.delete(couponId);
        else this.streams.set(couponId, Date.now());
      }
      return false;
    }
    this.streams.set(couponId, Date.now());
    return this.persist(couponId, fresh, true);
  }

  /** Dead-letters what failed too often, then claims what is left idle too long. */
  private async reclaim(couponId: number): Promise<void> {
    const keys = orderKeys(couponId);
    const { consumer, reclaimIdleMs, batchSize, maxDeliveries } = this.options;
    try {
      for (const { orderId, deliveries } of await stalePending(this.redis, keys.orders, reclaimIdleMs, batchSize)) {
        if (deliveries < maxDeliveries) continue;
        const moved = await this.redis.orderDeadLetter(
          keys.counter,
          keys.buyers,
          keys.orders,
          keys.dead,
          PERSISTERS_GROUP,
          orderId,
          deliveries,
        );
        if (moved) this.hooks.deadLettered?.(1);
      }
      const claimed = await claimStale(this.redis, keys.orders, consumer, reclaimIdleMs, batchSize);
      if (claimed.length > 0) await this.persist(couponId, claimed, false);
    } catch (error) {
      if (!/NOGROUP/.test((error as Error)?.message ?? '')) throw error;
    }
  }

  /**
   * Commits the batch, then acknowledges the orders that hold their grant, and gives up those the
   * database refused for good (of an ended counter epoch). The others (no stock of record left, or
   * the user granted otherwise) stay pending: redelivered, then dead-lettered.
   */
  private async persist(couponId: number, entries: readonly OrderEntry[], fresh: boolean): Promise<boolean> {
    const orders = entries.flatMap((e) => (e.order ? [e.order] : []));
    let outcome: OrdersPersisted;
    try {
      outcome = await this.ledger.persist(couponId, orders);
    } catch (error) {
      this.databaseDown = true;
      throw error;
    }
    const crashPoints = fresh ? entries.flatMap((e) => (e.crash ? [e.crash] : [])) : [];
    if (crashPoints.length > 0) this.hooks.afterCommit?.(crashPoints);
    await settle(
      this.redis,
      orderKeys(couponId).orders,
      orders.filter((o) => outcome.granted.has(o.orderId)).map((o) => o.orderId),
    );
    if (outcome.inserted > 0) this.hooks.persisted?.(outcome.inserted);
    const refused = await giveUpSuperseded(this.redis, couponId, orders, outcome.refused);
    if (refused > 0) this.hooks.deadLettered?.(refused);
    return true;
  }
}
