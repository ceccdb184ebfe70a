import { Inject, Injectable } from '@nestjs/common';
import { LockRegistry, LockTimeoutError, type HeldLock, type LockOptions, type LockStrategy } from '@app/lock';
import { RedisStock } from '@app/redis-stock';
import { DeductionService, type Granted, type GrantRequest } from '@app/stock';
import { AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import type { GrabOptions } from './grab.types';
import { crashAt } from './crash-at';
import { sectionWork } from './section-work';
import type { GrabStrategy } from './strategy-catalogue';

// Enough attempts to sell out 400 concurrent buyers; each loss is counted in the metrics.
const OPTIMISTIC = { maxAttempts: 100, backoffMs: 2, maxBackoffMs: 200 };

export type Taken = Granted & { readonly fenceToken?: number };

/**
 * Runs one grab through its strategy, spending `workMs` where that design spends it: inside the
 * lock between read and write (the locks), inside FOR UPDATE (db-for-update), between the read
 * and the conditional write (db-optimistic, whose retries redo it), or before the deducting
 * statement (db-atomic, redis-lua: no section to put it in; db-batched: before joining the queue). Null: no stock where it looked.
 */
@Injectable()
export class StrategyRunner {
  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly locks: LockRegistry,
    private readonly deductions: DeductionService,
    private readonly redisStock: RedisStock,
    private readonly metrics: MetricsService,
  ) {}

  /** `open`: the segments that had stock when the grab began (segmented only). */
  async run(strategy: GrabStrategy, req: GrantRequest, options: GrabOptions, open: number[]): Promise<Taken | null> {
    const work = sectionWork(options);
    if (!strategy.lock) {
      if (options.crash === 'after-acquire') crashAt('after-acquire', this.config.replicaId);
      return this.lockFree(strategy, req, options, work);
    }
    const lock = this.locks.get(strategy.lock)!;
    const lockOptions: LockOptions = {
      leaseMs: options.leaseMs ?? this.config.leaseMs,
      waitMs: options.waitMs ?? this.config.waitMs,
    };
    if (!strategy.segmented) {
      return lock.run(`coupon:${req.couponId}`, lockOptions, (held) =>
        this.section(lock, held, req, options, lockOptions),
      );
    }
    return this.fromSegments(lock, open, req, options, lockOptions);
  }

  private async lockFree(
    strategy: GrabStrategy,
    req: GrantRequest,
    options: GrabOptions,
    work: () => Promise<void>,
  ): Promise<Taken | null> {
    switch (strategy.deduction) {
      case 'atomic':
        await work();
        return this.deductions.atomic(req);
      case 'redis-lua':
        await work();
        return this.redisStock.take(req, {
          reservationMs: options.leaseMs,
          afterReserve: () =>
            options.crash === 'after-reserve' ? crashAt('after-reserve', this.config.replicaId) : undefined,
        });
      case 'batched':
        // Work per grab before it joins the queue; the queue then waits for the batch ahead.
        await work();
        return this.deductions.batched(req, () =>
          options.crash === 'after-reserve' ? crashAt('after-reserve', this.config.replicaId) : undefined,
        );
      case 'for-update':
        return this.deductions.forUpdate(req, { work });
      case 'optimistic':
        return this.deductions.optimistic(
          req,
          { work },
          { ...OPTIMISTIC, onRetry: () => this.metrics.optimisticRetries.inc() },
        );
      default:
        return this.deductions.readModifyWrite(req, { work });
    }
  }

  /**
   * Tries the open segments from a random one onwards, so replicas spread over segment locks.
   * A segment found dry under its lock sends us to the next; only all dry is sold out.
   */
  private async fromSegments(
    lock: LockStrategy,
    open: number[],
    req: GrantRequest,
    options: GrabOptions,
    lockOptions: LockOptions,
  ): Promise<Taken | null> {
    const start = Math.floor(Math.random() * open.length);
    const order = [...open.slice(start), ...open.slice(0, start)];
    const deadline = Date.now() + lockOptions.waitMs;
    let timedOut: LockTimeoutError | undefined;
    for (const segment of order) {
      const waitMs = Math.max(0, deadline - Date.now());
      try {
        const granted = await lock.run(`coupon:${req.couponId}:seg:${segment}`, { ...lockOptions, waitMs }, (held) =>
          this.section(lock, held, { ...req, segment }, options, lockOptions),
        );
        if (granted) return granted;
      } catch (error) {
        if (!(error instanceof LockTimeoutError)) throw error;
        timedOut = error;
      }
    }
    if (timedOut) throw timedOut;
    return null;
  }

  /** Runs right after the lock is acquired: the chaos hooks, then the deduction. */
  private async section(
    lock: LockStrategy,
    held: HeldLock,
    req: GrantRequest,
    options: GrabOptions,
    lockOptions: LockOptions,
  ): Promise<Taken | null> {
    if (options.crash === 'after-acquire') crashAt('after-acquire', this.config.replicaId);
    const deduct = async (h: HeldLock) => {
      const granted = await this.deductions.readModifyWrite(req, {
        work: sectionWork(options),
        signal: h.signal,
        fenceToken: h.fenceToken,
      });
      return granted && { ...granted, fenceToken: h.fenceToken };
    };
    // A reusable routine that takes the same lock again, as `nested=1` asks.
    if (options.nested) return lock.run(held.resource, lockOptions, (inner) => deduct(inner));
    return deduct(held);
  }
}
