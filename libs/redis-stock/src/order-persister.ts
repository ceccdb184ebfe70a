import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { OrdersPersisted, StreamOrder } from '@app/stock';
import { writeIsolating } from './order-batch';
import { defineOrderCommands, orderKeys } from './order-commands';
import { claimStale, countFailure, readNew, settle, type OrderEntry } from './order-stream-verbs';

/** The database side of a persister. */
export interface OrderLedger {
  /** Writes a batch of one coupon's orders as grants, in one statement (one commit). */
  persist(couponId: number, orders: readonly StreamOrder[]): Promise<OrdersPersisted>;
  /** The orders among these that hold a grant, read afresh (a statement of its own). */
  granted(couponId: number, orderIds: readonly string[]): Promise<ReadonlySet<string>>;
  /** True when the database answers: a persister reclaims others' orders only then. */
  reachable(): Promise<boolean>;
}

export interface PersisterOptions {
  /** This persister's consumer name in every stream's group (the replica's id). */
  readonly consumer: string;
  /** Orders one statement writes at most. */
  readonly batchSize: number;
  /**
   * The longest a statement can still commit after the persister sent it: the database's wait for
   * a connection plus its statement timeout.
   */
  readonly statementLifeMs: number;
  /**
   * An order pending longer than this is reclaimed by any persister (its consumer died, or gave it
   * back). Longer than `statementLifeMs`: no persister starts a statement later than
   * `reclaimIdleMs − statementLifeMs` after its delivery, so no statement of a reclaimed delivery can
   * still commit.
   */
  readonly reclaimIdleMs: number;
  /** Failures of an order's own (its statement failed, alone) that send it to the dead letters. */
  readonly maxFailures: number;
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

export const DEFAULT_PERSISTER: Omit<PersisterOptions, 'consumer' | 'statementLifeMs'> = Object.freeze({
  batchSize: 256,
  reclaimIdleMs: 15_000,
  maxFailures: 5,
  pollMs: 20,
  discoverEveryMs: 1000,
});

/** A stream found empty this long is deleted (when still empty) and forgotten until it is found again. */
const FORGET_AFTER_MS = 10_000;

/** Why an order was given up, as the dead letter and the buyer's lookup tell it. */
export const REFUSED = 'the database refused it: no stock of record left for it, or the user holds a grant already';
export const MALFORMED = 'its stream entry is malformed';

/**
 * One consumer of every coupon's order stream (redis-stream); every replica runs one. A batch is
 * written in one statement, committed, and only then acknowledged, so a persister that dies
 * mid-batch leaves its orders pending: any persister claims them once idle `reclaimIdleMs`, and a
 * redelivered order finds its grant by order id rather than making a second one. A slow or
 * unreachable database is never an order's fault; an order the database refuses, or whose own
 * statement keeps failing, goes to the coupon's dead-letter stream.
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
    if (options.reclaimIdleMs <= options.statementLifeMs)
      throw new Error(
        `reclaimIdleMs (${options.reclaimIdleMs}) must exceed statementLifeMs (${options.statementLifeMs}): ` +
          'a reclaimed order could still be granted by its last delivery',
      );
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
    const deliveredAt = Date.now();
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
    return this.persist(couponId, fresh, deliveredAt, true);
  }

  /** Claims the orders left idle too long (their persister died, or gave them back), and writes them. */
  private async reclaim(couponId: number): Promise<void> {
    const { consumer, reclaimIdleMs, batchSize } = this.options;
    try {
      const deliveredAt = Date.now();
      const claimed = await claimStale(this.redis, orderKeys(couponId).orders, consumer, reclaimIdleMs, batchSize);
      if (claimed.length > 0) await this.persist(couponId, claimed, deliveredAt, false);
    } catch (error) {
      if (!/NOGROUP/.test((error as Error)?.message ?? '')) throw error;
    }
  }

  /**
   * Writes the delivered orders (a poison one alone), then acknowledges those that hold their
   * grant. An order the database refused, or whose own statement failed, counts a failure once the
   * database, asked afresh, shows no grant for it; the others stay pending, retried once idle.
   */
  private async persist(
    couponId: number,
    entries: readonly OrderEntry[],
    deliveredAt: number,
    fresh: boolean,
  ): Promise<boolean> {
    const keys = orderKeys(couponId);
    const { consumer, reclaimIdleMs, statementLifeMs, maxFailures } = this.options;
    const orders = entries.flatMap((e) => (e.order ? [e.order] : []));
    const startBy = deliveredAt + reclaimIdleMs - statementLifeMs;
    const outcome = await writeIsolating(
      (part) => this.ledger.persist(couponId, part),
      orders,
      () => Date.now() < startBy,
    );
    const crashPoints = fresh ? entries.flatMap((e) => (e.crash ? [e.crash] : [])) : [];
    if (crashPoints.length > 0 && outcome.granted.size > 0) this.hooks.afterCommit?.(crashPoints);
    const suspects = [...outcome.refused.map((o) => o.orderId), ...outcome.failed.keys()];
    // A statement's snapshot may predate another delivery's commit: a grant found now is acknowledged.
    const grantedElsewhere = suspects.length > 0 ? await this.ledger.granted(couponId, suspects) : new Set<string>();
    await settle(this.redis, keys, [...outcome.granted, ...grantedElsewhere]);
    if (outcome.inserted > 0) this.hooks.persisted?.(outcome.inserted);
    const failures: [orderId: string, limit: number, reason: string][] = [
      ...outcome.refused.map((o): [string, number, string] => [o.orderId, 1, REFUSED]),
      ...[...outcome.failed].map(([id, message]): [string, number, string] => [id, maxFailures, message]),
      ...entries.flatMap((e): [string, number, string][] => (e.order ? [] : [[e.orderId, 1, MALFORMED]])),
    ];
    for (const [orderId, limit, reason] of failures) {
      if (grantedElsewhere.has(orderId)) continue;
      if (await countFailure(this.redis, keys, consumer, orderId, limit, reason)) this.hooks.deadLettered?.(1);
    }
    if (outcome.unavailable) {
      this.databaseDown = true;
      throw outcome.unavailable;
    }
    return true;
  }
}
