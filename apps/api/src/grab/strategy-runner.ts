import { Inject, Injectable } from '@nestjs/common';
import { couponLockResource, isSchedStrategy, SCHED_STRATEGIES } from '@app/contract';
import { LockRegistry, LockTimeoutError, type HeldLock, type LockOptions, type LockStrategy } from '@app/lock';
import { RedisStock } from '@app/redis-stock';
import { DeductionService, type Granted, type GrantRequest } from '@app/stock';
import { RequestInvalidError } from '@app/apps-common';
import { AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import type { GrabOptions } from './grab.types';
import { crashAt } from './crash-at';
import { StepGates } from './step-gates';
import { sectionWork } from './section-work';
import { segmentOrder, type OpenSegment } from './segment-order';
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
    private readonly gates: StepGates,
  ) {}

  /**
   * `open`: the segments that had stock when the grab began, and how much (segmented only). A
   * stepped grab (`step`) waits at each named step of its path for the lab's word.
   */
  async run(
    strategy: GrabStrategy,
    req: GrantRequest,
    options: GrabOptions,
    open: readonly OpenSegment[],
  ): Promise<Taken | null> {
    if (!options.step) return this.runOnce(strategy, req, options, open);
    if (!isSchedStrategy(strategy.name))
      throw new RequestInvalidError(`step needs one of ${SCHED_STRATEGIES.join(', ')}, not ${strategy.name}`);
    const gate = this.gates.open(options.step);
    try {
      return await this.runOnce(strategy, req, { ...options, checkpoint: gate.checkpoint }, open);
    } finally {
      gate.close();
    }
  }

  private async runOnce(
    strategy: GrabStrategy,
    req: GrantRequest,
    options: GrabOptions,
    open: readonly OpenSegment[],
  ): Promise<Taken | null> {
    const work = sectionWork(options);
    if (!strategy.lock) {
      if (options.crash === 'after-acquire') crashAt('after-acquire', this.config.replicaId);
      return this.lockFree(strategy, req, options, work);
    }
    const lock = this.locks.get(strategy.lock)!;
    const lockOptions: LockOptions = {
      leaseMs: options.leaseMs ?? this.config.leaseMs,
      waitMs: options.waitMs ?? this.config.waitMs,
      signal: options.signal,
    };
    if (!strategy.segmented) {
      if (strategy.lock !== 'none') await options.checkpoint?.('acquire');
      return lock.run(couponLockResource(req.couponId), lockOptions, (held) =>
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
        await options.checkpoint?.('write');
        return this.deductions.atomic(req);
      case 'redis-lua':
        await work();
        return this.redisStock.take(req, {
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
   * The buyer's row is drawn by stock left, and waited for. Found dry, the buyer tries every other
   * row once without waiting (most stock first), then waits in turn for the rows that were busy.
   * A row found dry under its lock is skipped; only every row dry is sold out.
   */
  private async fromSegments(
    lock: LockStrategy,
    open: readonly OpenSegment[],
    req: GrantRequest,
    options: GrabOptions,
    lockOptions: LockOptions,
  ): Promise<Taken | null> {
    const [first, ...others] = segmentOrder(open);
    const deadline = Date.now() + lockOptions.waitMs;
    let timedOut: LockTimeoutError | undefined;
    /** The grant, null when the row is dry, undefined when its lock was not had in time. */
    const tryRow = async (segment: number, waitMs: number): Promise<Taken | null | undefined> => {
      try {
        return await lock.run(couponLockResource(req.couponId, segment), { ...lockOptions, waitMs }, (held) =>
          this.section(lock, held, { ...req, segment }, options, lockOptions),
        );
      } catch (error) {
        if (!(error instanceof LockTimeoutError)) throw error;
        timedOut = error;
        return undefined;
      }
    };
    const left = () => Math.max(0, deadline - Date.now());
    const busy: number[] = [];
    if (first !== undefined) {
      const own = await tryRow(first, left());
      if (own) return own;
      if (own === undefined) busy.push(first);
    }
    for (const segment of others) {
      const granted = await tryRow(segment, 0);
      if (granted) return granted;
      if (granted === undefined) busy.push(segment);
    }
    // Rows whose lock was never had may still hold stock: not sold out, but LOCK.TIMEOUT.
    let unjudged = busy.length;
    for (const segment of busy) {
      if (left() === 0) break;
      const granted = await tryRow(segment, left());
      if (granted) return granted;
      if (granted === null) unjudged--;
    }
    if (unjudged > 0 && timedOut) throw timedOut;
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
        checkpoint: options.checkpoint,
      });
      if (lock.name !== 'none') await options.checkpoint?.('release');
      return granted && { ...granted, fenceToken: await h.fenceToken };
    };
    // A reusable routine that takes the same lock again, as `nested=1` asks.
    if (options.nested) return lock.run(held.resource, lockOptions, (inner) => deduct(inner));
    return deduct(held);
  }
}
