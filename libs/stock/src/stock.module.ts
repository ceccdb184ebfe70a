import {
  Inject,
  Module,
  type DynamicModule,
  type FactoryProvider,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { CouponsService } from './coupons.service';
import { StockDatabase, type StockDatabaseOptions } from './database/stock-database';
import { DeductionService } from './deduction/deduction.service';
import { TRUST_MS } from './sold-out/reset-channel';
import { HoldSweeper } from './holds/hold-sweeper';
import { HoldsService } from './holds/holds.service';
import { SoldOutMemo } from './sold-out/sold-out-memo';
import { StockListener } from './sold-out/stock-listener';

export interface StockModuleOptions extends StockDatabaseOptions {
  /** How often this process sweeps due holds (every replica sweeps; default 200 ms). */
  readonly holdSweepMs?: number;
  /** A sweep that failed (PostgreSQL away): the next period retries. */
  readonly onSweepError?: (error: unknown) => void;
}

export interface StockModuleAsyncOptions {
  readonly useFactory: (...args: never[]) => StockModuleOptions | Promise<StockModuleOptions>;
  readonly inject?: FactoryProvider['inject'];
}

const STOCK_OPTIONS = Symbol('StockModuleOptions');

/** PostgreSQL-backed stock: coupons, their stock rows, grants, the deductions and the sold-out memo. */
@Module({})
export class StockModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(StockDatabase) private readonly db: StockDatabase,
    @Inject(StockListener) private readonly listener: StockListener,
    @Inject(HoldSweeper) private readonly sweeper: HoldSweeper,
  ) {}

  static forRootAsync(options: StockModuleAsyncOptions): DynamicModule {
    return {
      module: StockModule,
      providers: [
        { provide: STOCK_OPTIONS, inject: options.inject, useFactory: options.useFactory },
        {
          provide: StockDatabase,
          inject: [STOCK_OPTIONS],
          useFactory: (o: StockModuleOptions) => new StockDatabase(o),
        },
        { provide: SoldOutMemo, useFactory: () => new SoldOutMemo(TRUST_MS) },
        {
          provide: StockListener,
          inject: [STOCK_OPTIONS, SoldOutMemo],
          useFactory: (o: StockDatabaseOptions, memo: SoldOutMemo) => new StockListener(o.databaseUrl, memo),
        },
        CouponsService,
        DeductionService,
        HoldsService,
        {
          provide: HoldSweeper,
          inject: [STOCK_OPTIONS, HoldsService],
          useFactory: (o: StockModuleOptions, holds: HoldsService) =>
            new HoldSweeper(holds, o.holdSweepMs ?? 200, o.onSweepError),
        },
      ],
      exports: [StockDatabase, SoldOutMemo, CouponsService, DeductionService, HoldsService],
    };
  }

  onModuleInit(): void {
    this.listener.start();
    this.sweeper.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweeper.stop();
    await this.listener.close();
    await this.db.close();
  }
}
