import { Module, type DynamicModule, type FactoryProvider } from '@nestjs/common';
import { TypeOrmModule, type TypeOrmModuleOptions } from '@nestjs/typeorm';
import { CouponsService } from './coupons.service';
import { stockDataSourceOptions, type StockDatabaseOptions } from './data-source-options';
import { DeductionService } from './deduction/deduction.service';

export interface StockModuleAsyncOptions {
  /** Called with the `inject` providers, in order. */
  readonly useFactory: FactoryProvider<StockDatabaseOptions>['useFactory'];
  readonly inject?: FactoryProvider['inject'];
}

/** PostgreSQL-backed stock: coupons, their stock rows, grants and the deductions. */
@Module({})
export class StockModule {
  static forRootAsync(options: StockModuleAsyncOptions): DynamicModule {
    return {
      module: StockModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: options.inject,
          useFactory: async (...args: unknown[]): Promise<TypeOrmModuleOptions> => ({
            ...stockDataSourceOptions(await options.useFactory(...args)),
            retryAttempts: 3,
            retryDelay: 1000,
          }),
        }),
      ],
      providers: [CouponsService, DeductionService],
      exports: [CouponsService, DeductionService],
    };
  }
}
