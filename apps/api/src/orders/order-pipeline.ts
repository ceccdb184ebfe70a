import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { CrashPoint } from '@app/contract';
import {
  DEFAULT_PERSISTER,
  ORDER_STREAM_PATTERN,
  OrderDesk,
  OrderPersister,
  orderStreamCoupon,
  type AcceptedOrder,
  type OrderOutcome,
} from '@app/redis-stock';
import { DeductionService, statementLifeMs } from '@app/stock';
import { AppConfig } from '../config/app-config';
import { crashAt } from '../grab/crash-at';
import { MetricsService } from '../metrics/metrics.service';
import { AppRedis } from '../redis/app-redis';

const STRATEGY = 'redis-stream';

/**
 * redis-stream in this replica: the desk that accepts orders into Redis, and this replica's
 * persister of every coupon's order stream (started with the app, stopped before Redis closes).
 */
@Injectable()
export class OrderPipeline implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Orders');
  private readonly desk: OrderDesk;
  private readonly persister: OrderPersister;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    redis: AppRedis,
    deductions: DeductionService,
    metrics: MetricsService,
  ) {
    this.desk = new OrderDesk(redis.client, (id) => deductions.loadCounter(id));
    let lastFailure = '';
    this.persister = new OrderPersister(
      redis.client,
      {
        persist: (couponId, orders) => deductions.persistOrders(couponId, orders, STRATEGY),
        granted: (couponId, orders) => deductions.ordersGranted(couponId, orders),
        reachable: () => deductions.reachable(1000),
      },
      {
        ...DEFAULT_PERSISTER,
        consumer: config.replicaId,
        reclaimIdleMs: config.orderReclaimIdleMs,
        statementLifeMs: statementLifeMs(config.databaseStatementTimeoutMs),
        maxFailures: config.orderMaxFailures,
      },
      {
        discover: async () =>
          (await redis.keysMatching(ORDER_STREAM_PATTERN, 'stream')).flatMap((key) => orderStreamCoupon(key) ?? []),
        afterCommit: (points) => {
          if (points.includes('after-commit')) crashAt('after-commit', config.replicaId);
        },
        persisted: (grants) => metrics.ordersPersisted.inc(grants),
        deadLettered: (orders) => metrics.ordersDeadLettered.inc(orders),
        failed: (error) => {
          // Redis or PostgreSQL down: the persister retries on its own; say so once per kind of failure.
          const message = (error as Error)?.message ?? String(error);
          if (message !== lastFailure) this.logger.warn(`persister: ${message}`);
          lastFailure = message;
        },
      },
    );
  }

  onApplicationBootstrap(): void {
    this.persister.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.persister.stop();
  }

  /** Takes the unit and queues the order (SoldOutError, DuplicateGrantError); `crash` is for its persister. */
  async accept(couponId: number, userId: string, crash?: CrashPoint): Promise<AcceptedOrder> {
    const accepted = await this.desk.accept({
      couponId,
      userId,
      replica: this.config.replicaId,
      persisterCrash: crash === 'after-commit' ? crash : undefined,
    });
    this.persister.watch(couponId);
    return accepted;
  }

  /** The user's order while it waits in Redis, or the one given up; null when neither. */
  lookup(couponId: number, userId: string): Promise<OrderOutcome | null> {
    return this.desk.lookup(couponId, userId);
  }
}
