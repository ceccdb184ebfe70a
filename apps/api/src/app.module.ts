import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { LockModule } from '@app/lock';
import { RedisStock } from '@app/redis-stock';
import { CouponsService, DeductionService, StockModule } from '@app/stock';
import { AdminGuard } from './common/admin.guard';
import { ConnectionDrain } from './common/connection-drain';
import { ErrorFilter } from './common/error.filter';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { ChaosGate } from './coupons/chaos-gate';
import { CouponLocks } from './coupons/coupon-locks';
import { CouponsController } from './coupons/coupons.controller';
import { StockReconciler } from './coupons/stock-reconciler';
import { GrabService } from './grab/grab.service';
import { StrategyRunner } from './grab/strategy-runner';
import { StepGates } from './grab/step-gates';
import { HealthController } from './health/health.controller';
import { HoldsController } from './holds/holds.controller';
import { LockEventLog } from './lock-events/lock-event-log';
import { LockEventsController } from './lock-events/lock-events.controller';
import { LockEventsModule } from './lock-events/lock-events.module';
import { MetricsController } from './metrics/metrics.controller';
import { OrderPipeline } from './orders/order-pipeline';
import { AppRedis } from './redis/app-redis';
import { RoomController } from './room/room.controller';
import { RoomGate } from './room/room-gate';
import { StrategiesController } from './strategies/strategies.controller';

@Module({
  imports: [
    LockEventsModule,
    StockModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        databaseUrl: config.databaseUrl,
        poolSize: config.databasePoolSize,
        statementTimeoutMs: config.databaseStatementTimeoutMs,
        applicationName: `oversell:${config.replicaId}`,
        holdSweepMs: config.holdSweepMs,
        onSweepError: (error: unknown) => new Logger('HoldSweeper').warn(`sweep failed: ${String(error)}`),
      }),
    }),
    LockModule.forRootAsync({
      imports: [LockEventsModule],
      inject: [AppConfig, LockEventLog],
      useFactory: (config: AppConfig, events: LockEventLog) => ({
        redisUrl: config.redisUrl,
        redisTarget: config.redis,
        replicaId: config.replicaId,
        redlockUrls: config.redlockUrls,
        handoffLimit: config.handoffLimit,
        waitForReplicas:
          config.waitReplicas > 0
            ? { replicas: config.waitReplicas, timeoutMs: config.waitReplicasTimeoutMs }
            : undefined,
        events,
      }),
    }),
    TerminusModule,
  ],
  controllers: [
    CouponsController,
    HoldsController,
    RoomController,
    StrategiesController,
    HealthController,
    MetricsController,
    LockEventsController,
  ],
  providers: [
    { provide: APP_FILTER, useClass: ErrorFilter },
    AdminGuard,
    ConnectionDrain,
    ChaosGate,
    CouponLocks,
    GrabService,
    StrategyRunner,
    StepGates,
    StockReconciler,
    AppRedis,
    OrderPipeline,
    RoomGate,
    {
      // Redis reserves, the database's conditional decrement (db-atomic's) persists.
      provide: RedisStock,
      inject: [AppRedis, CouponsService, DeductionService],
      useFactory: (redis: AppRedis, coupons: CouponsService, deductions: DeductionService) =>
        new RedisStock(redis.client, {
          currentStock: async (id) => (await coupons.get(id)).stock,
          loadCounter: (id) => deductions.loadCounter(id),
          grantedUsers: (id, users) => coupons.grantedUsers(id, users),
          persist: (req) => deductions.atomic(req),
        }),
    },
  ],
})
export class AppModule {
  /** The app with the configuration main.ts read from the environment, once. */
  static forRoot(config: AppConfig): DynamicModule {
    return { module: AppModule, imports: [ConfigModule.forRoot(config)] };
  }
}
