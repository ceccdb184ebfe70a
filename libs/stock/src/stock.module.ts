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
import { SoldOutMemo } from './sold-out/sold-out-memo';
import { StockListener } from './sold-out/stock-listener';

export interface StockModuleAsyncOptions {
  readonly useFactory: (...args: never[]) => StockDatabaseOptions | Promise<StockDatabaseOptions>;
  readonly inject?: FactoryProvider['inject'];
}

const STOCK_OPTIONS = Symbol('StockModuleOptions');

/** PostgreSQL-backed stock: coupons, their stock rows, grants, the deductions and the sold-out memo. */
@Module({})
export class StockModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(StockDatabase) private readonly db: StockDatabase,
    @Inject(StockListener) private readonly listener: StockListener,
  ) {}

  static forRootAsync(options: StockModuleAsyncOptions): DynamicModule {
    return {
      module: StockModule,
      providers: [
        { provide: STOCK_OPTIONS, inject: options.inject, useFactory: options.useFactory },
        {
          provide: StockDatabase,
          inject: [STOCK_OPTIONS],
          useFactory: (o: StockDatabaseOptions) => new StockDatabase(o),
        },
        { provide: SoldOutMemo, useFactory: () => new SoldOutMemo(TRUST_MS) },
        {
          provide: StockListener,
          inject: [STOCK_OPTIONS, SoldOutMemo],
          useFactory: (o: StockDatabaseOptions, memo: SoldOutMemo) => new StockListener(o.databaseUrl, memo),
        },
        CouponsService,
        DeductionService,
      ],
      exports: [StockDatabase, SoldOutMemo, CouponsService, DeductionService],
    };
  }

  onModuleInit(): void {
    this.listener.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.listener.close();
    await this.db.close();
  }
}
