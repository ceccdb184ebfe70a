import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { failuresOf, writeIsolating } from './order-batch';
import { defineOrderCommands, orderKeys } from './order-commands';
import { claimStale, countFailure, readNew, settle, type OrderEntry } from './order-stream-verbs';
import type { OrderLedger, PersisterHooks, PersisterOptions } from './persister-options';

/** A stream found empty this long is deleted (when still empty) and forgotten until it is found again. */
const FORGET_AFTER_MS = 10_000;

/**
 * One consumer of every coupon's order stream (redis-stream); every replica runs one. A batch is
 * written in one statement, committed, and only then acknowledged, so a persister that dies
 * mid-batch leaves its orders pending: any persister claims them once idle `reclaimIdleMs`, and a
 * redelivered order finds its grant by order id rather than making a second one. A slow or
 * unreachable database is never an order's fault; an order the database refuses (of an ended
 * counter epoch, no stock of record, a user granted already), or whose own statement keeps
 * failing, goes to the coupon's dead-letter stream.
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
   * grant. An order the database refused (superseded, sold out, duplicate), or whose own statement
   * failed, counts a failure once the database, asked afresh, shows no grant for it; the others
   * stay pending, retried once idle.
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
    const suspects = orders.filter((o) => outcome.refused.has(o.orderId) || outcome.failed.has(o.orderId));
    // A statement's snapshot may predate another delivery's commit: a grant found now is acknowledged.
    const grantedElsewhere = suspects.length > 0 ? await this.ledger.granted(couponId, suspects) : new Set<string>();
    await settle(this.redis, keys, [...outcome.granted, ...grantedElsewhere]);
    if (outcome.inserted > 0) this.hooks.persisted?.(outcome.inserted);
    const malformed = entries.flatMap((e) => (e.order ? [] : [e.orderId]));
    for (const failure of failuresOf(outcome, malformed, maxFailures)) {
      if (grantedElsewhere.has(failure.orderId)) continue;
      if (await countFailure(this.redis, keys, consumer, failure)) this.hooks.deadLettered?.(1);
    }
    if (outcome.unavailable) {
      this.databaseDown = true;
      throw outcome.unavailable;
    }
    return true;
  }
}
