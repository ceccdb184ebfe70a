import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  LockRegistry,
  LockTimeoutError,
  runInFlow,
  type HeldLock,
  type LockOptions,
  type LockStrategy,
} from '@app/lock';
import { DeductionService, RedisStock, SoldOutError, type Granted, type GrantRequest } from '@app/stock';
import { RequestInvalidError } from '../common/app.errors';
import { AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import type { GrabOptions, GrabResult } from './grab.types';
import { sectionWork } from './section-work';
import { STRATEGY_CATALOGUE, type GrabStrategy } from './strategy-catalogue';

// Enough attempts to sell out 400 concurrent buyers; each loss is counted in the metrics.
const OPTIMISTIC = { maxAttempts: 100, backoffMs: 2, maxBackoffMs: 200 };

/** Pairs a lock strategy with a deduction and runs one grab through them. */
@Injectable()
export class GrabService {
  private readonly logger = new Logger('Grab');
  private readonly offered: GrabStrategy[];
  private readonly defaultStrategy: string;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly locks: LockRegistry,
    private readonly deductions: DeductionService,
    private readonly redisStock: RedisStock,
    private readonly metrics: MetricsService,
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

  async grab(couponId: number, userId: string, options: GrabOptions): Promise<GrabResult> {
    const strategy = this.resolve(options.strategy);
    const stopTimer = this.metrics.grabDuration.startTimer({ strategy: strategy.name });
    try {
      const granted = await runInFlow(() => this.take(strategy, couponId, userId, options));
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
      throw error;
    } finally {
      stopTimer();
    }
  }

  private async take(
    strategy: GrabStrategy,
    couponId: number,
    userId: string,
    options: GrabOptions,
  ): Promise<Granted & { fenceToken?: number }> {
    const req: GrantRequest = { couponId, userId, strategy: strategy.name, replica: this.config.replicaId };
    // Redis is redis-lua's filter: the sold-out crowd must not reach the database at all.
    if (strategy.deduction === 'redis-lua') {
      if (options.crash) this.crash();
      return this.redisStock.take(req);
    }
    // Stock only falls, so an empty peek is final: sold-out answers skip the lock entirely.
    const peek = await this.deductions.peek(couponId);
    if (peek.open.length === 0) throw new SoldOutError(couponId);
    const lockOptions: LockOptions = {
      leaseMs: options.leaseMs ?? this.config.leaseMs,
      waitMs: options.waitMs ?? this.config.waitMs,
    };

    if (!strategy.lock) {
      if (options.crash) this.crash();
      const granted = await this.deductLockFree(strategy, req, options);
      if (!granted) throw new SoldOutError(couponId);
      return granted;
    }
    const lock = this.locks.get(strategy.lock)!;
    if (!strategy.segmented) {
      const granted = await lock.run(`coupon:${couponId}`, lockOptions, (held) =>
        this.section(lock, held, req, options, lockOptions),
      );
      if (!granted) throw new SoldOutError(couponId);
      return granted;
    }
    return this.takeFromSegments(lock, peek.open, req, options, lockOptions);
  }

  /**
   * Tries the open segments from a random one onwards, so replicas spread over segment locks.
   * A segment found dry under its lock sends us to the next; only all dry is sold out.
   */
  private async takeFromSegments(
    lock: LockStrategy,
    open: number[],
    req: GrantRequest,
    options: GrabOptions,
    lockOptions: LockOptions,
  ) {
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
    throw timedOut ?? new SoldOutError(req.couponId);
  }

  /** Runs right after the lock is acquired: the chaos hooks, then the deduction. */
  private async section(
    lock: LockStrategy,
    held: HeldLock,
    req: GrantRequest,
    options: GrabOptions,
    lockOptions: LockOptions,
  ) {
    if (options.crash) this.crash();
    const deduct = (h: HeldLock) =>
      this.deductions
        .readModifyWrite(req, { work: sectionWork(options), signal: h.signal, fenceToken: h.fenceToken })
        .then((g) => g && { ...g, fenceToken: h.fenceToken });
    // A reusable routine that takes the same lock again, as `nested=1` asks.
    if (options.nested) return lock.run(held.resource, lockOptions, (inner) => deduct(inner));
    return deduct(held);
  }

  private deductLockFree(strategy: GrabStrategy, req: GrantRequest, options: GrabOptions): Promise<Granted | null> {
    const work = sectionWork(options);
    switch (strategy.deduction) {
      case 'atomic':
        return this.deductions.atomic(req);
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

  private crash(): never {
    this.logger.warn(`${this.config.replicaId} crashing on purpose (crash=1) while holding the lock`);
    process.kill(process.pid, 'SIGKILL');
    throw new Error('unreachable');
  }

  private find(name: string): GrabStrategy | undefined {
    return this.offered.find((s) => s.name === name);
  }
}
