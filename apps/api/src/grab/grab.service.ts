import { Inject, Injectable } from '@nestjs/common';
import type { GrabAccepted, GrabGranted } from '@app/contract';
import { LockRegistry, runInFlow } from '@app/lock';
import {
  CouponsService,
  DeductionService,
  DuplicateGrantError,
  SoldOutError,
  SoldOutMemo,
  type MemoTicket,
  type StockPeek,
} from '@app/stock';
import { RequestInvalidError } from '@app/apps-common';
import { AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import { OrderPipeline } from '../orders/order-pipeline';
import type { GrabOptions } from './grab.types';
import { checkCrashPoint, crashAt } from './crash-at';
import { sectionWork } from './section-work';
import { STRATEGY_CATALOGUE, type GrabStrategy } from './strategy-catalogue';
import type { OpenSegment } from './segment-order';
import { StrategyRunner, type Taken } from './strategy-runner';

/**
 * One grab: the sold-out check, then the strategy. A coupon this replica has seen sold out is
 * answered from memory without touching PostgreSQL (stock of record only falls between resets,
 * and every reset reaches the memo first); otherwise the stock of record decides.
 */
@Injectable()
export class GrabService {
  private readonly offered: GrabStrategy[];
  private readonly defaultStrategy: string;
  /** Coupons known to exist (none is ever deleted): later grabs need no look first. */
  private readonly known = new Set<number>();
  /** One look at the stock of record per coupon at a time, when Redis says sold out. */
  private readonly probes = new Map<number, Promise<void>>();
  /** Looks at a coupon's rows in flight, by coupon and memo ticket. */
  private readonly peeks = new Map<string, Promise<StockPeek>>();

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    locks: LockRegistry,
    private readonly deductions: DeductionService,
    private readonly coupons: CouponsService,
    private readonly memo: SoldOutMemo,
    private readonly runner: StrategyRunner,
    private readonly metrics: MetricsService,
    private readonly orders: OrderPipeline,
  ) {
    this.offered = STRATEGY_CATALOGUE.filter((s) => !s.lock || locks.get(s.lock));
    this.defaultStrategy = ['watchdog', 'db-atomic', 'synchronized'].find((n) => this.find(n)) ?? 'none';
  }

  strategies(): GrabStrategy[] {
    return this.offered;
  }

  resolve(name: string | undefined): GrabStrategy {
    const strategy = this.find(name ?? this.defaultStrategy);
    if (!strategy) {
      throw new RequestInvalidError(`unknown strategy "${name}"; valid: ${this.offered.map((s) => s.name).join(', ')}`);
    }
    return strategy;
  }

  async grab(couponId: number, userId: string, options: GrabOptions): Promise<GrabGranted | GrabAccepted> {
    const strategy = this.resolve(options.strategy);
    checkCrashPoint(strategy, options.crash);
    // The sold-out crowd first: answered from memory, before any other work is set up for it.
    if (this.memo.isSoldOut(couponId)) {
      this.metrics.soldOutFromMemory.inc();
      this.metrics.grabs.inc({ strategy: strategy.name, outcome: 'STOCK.SOLD_OUT' });
      throw new SoldOutError(couponId);
    }
    const stopTimer = this.metrics.grabDuration.startTimer({ strategy: strategy.name });
    try {
      if (strategy.deduction === 'stream') {
        const accepted = await this.accept(strategy, couponId, userId, options);
        this.metrics.grabs.inc({ strategy: strategy.name, outcome: 'accepted' });
        return accepted;
      }
      const granted = await runInFlow(() => this.take(strategy, couponId, userId, options));
      if (options.crash === 'after-commit') crashAt('after-commit', this.config.replicaId);
      this.metrics.grabs.inc({ strategy: strategy.name, outcome: 'granted' });
      return {
        granted: true,
        couponId,
        userId,
        strategy: strategy.name,
        replica: this.config.replicaId,
        remaining: granted.remaining,
        segment: granted.segment,
        ...(granted.fenceToken !== undefined && { fenceToken: granted.fenceToken }),
        ...(granted.retries !== undefined && { retries: granted.retries }),
      };
    } catch (error) {
      this.metrics.grabs.inc({ strategy: strategy.name, outcome: (error as { code?: string }).code ?? 'error' });
      // A buyer retrying after a lost answer learns what it already holds.
      if (error instanceof DuplicateGrantError)
        error.grant = await this.coupons.grant(couponId, userId).catch(() => undefined);
      throw error;
    } finally {
      stopTimer();
    }
  }

  /**
   * redis-stream: the work, then one script takes the unit and queues the order; the answer does
   * not wait for the database. Redis's sold out is checked against the stock of record as usual.
   */
  private async accept(
    strategy: GrabStrategy,
    couponId: number,
    userId: string,
    options: GrabOptions,
  ): Promise<GrabAccepted> {
    const ticket = this.memo.ticket(couponId);
    await this.openSegments(couponId, false, ticket);
    // As for every lock-free strategy: `after-acquire` dies before the work and the deduction.
    if (options.crash === 'after-acquire') crashAt('after-acquire', this.config.replicaId);
    await sectionWork(options)();
    let orderId: string;
    try {
      ({ orderId } = await this.orders.accept(couponId, userId, options.crash));
    } catch (error) {
      if (error instanceof SoldOutError) await this.confirmSoldOut(couponId, ticket);
      throw error;
    }
    if (options.crash === 'after-accept') crashAt('after-accept', this.config.replicaId);
    return { accepted: true, couponId, userId, orderId, strategy: strategy.name, replica: this.config.replicaId };
  }

  private async take(strategy: GrabStrategy, couponId: number, userId: string, options: GrabOptions): Promise<Taken> {
    const ticket = this.memo.ticket(couponId);
    const open = await this.openSegments(couponId, strategy.segmented === true, ticket);
    const req = { couponId, userId, strategy: strategy.name, replica: this.config.replicaId };
    let granted: Taken | null;
    try {
      granted = await this.runner.run(strategy, req, options, open);
    } catch (error) {
      if (error instanceof SoldOutError) await this.confirmSoldOut(couponId, ticket);
      throw error;
    }
    if (!granted || granted.remaining === 0) this.memo.markSoldOut(ticket);
    if (!granted) throw new SoldOutError(couponId);
    return granted;
  }

  /**
   * The segments with stock, looked up when the strategy needs them or the coupon is new here
   * (COUPON.NOT_FOUND comes from this look); none open is sold out.
   */
  private async openSegments(couponId: number, segmented: boolean, ticket: MemoTicket): Promise<OpenSegment[]> {
    if (!segmented && this.known.has(couponId)) return [];
    const peek = await this.sharedPeek(couponId, ticket);
    this.known.add(couponId);
    if (peek.open.length > 0) return peek.open.map((index, i) => ({ index, stock: peek.stocks[i] }));
    this.memo.markSoldOut(ticket);
    throw new SoldOutError(couponId);
  }

  /**
   * Grabs that arrive while a look at the coupon's rows is in flight share it (a segmented sale
   * would otherwise ask once per buyer). Only under the same memo ticket: a reset heard since
   * starts a new look, and a reset not yet heard here has not answered yet.
   */
  private sharedPeek(couponId: number, ticket: MemoTicket): Promise<StockPeek> {
    const key = `${couponId}:${ticket.resets}:${ticket.session}`;
    let peek = this.peeks.get(key);
    if (!peek) {
      peek = this.deductions.peek(couponId).finally(() => this.peeks.delete(key));
      this.peeks.set(key, peek);
    }
    return peek;
  }

  /** Redis said sold out: only the stock of record may teach the memo, so look there once. */
  private async confirmSoldOut(couponId: number, ticket: MemoTicket): Promise<void> {
    let probe = this.probes.get(couponId);
    if (!probe) {
      probe = this.deductions
        .peek(couponId)
        .then((peek) => (peek.open.length === 0 ? this.memo.markSoldOut(ticket) : undefined))
        .catch(() => undefined)
        .finally(() => this.probes.delete(couponId));
      this.probes.set(couponId, probe);
    }
    await probe;
  }

  private find(name: string): GrabStrategy | undefined {
    return this.offered.find((s) => s.name === name);
  }
}
