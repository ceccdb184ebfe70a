import type { DataSourceOptions } from 'typeorm';
import { CouponEntity } from './entities/coupon.entity';
import { GrantEntity } from './entities/grant.entity';
import { StockSegmentEntity } from './entities/stock-segment.entity';
import { InitialSchema1763800000000 } from './migrations/1763800000000-initial-schema';

export interface StockDatabaseOptions {
  readonly databaseUrl: string;
  /** Connections per process. */
  readonly poolSize?: number;
}

/** The schema is owned by migrations: replicas never synchronise it (three would race). */
export function stockDataSourceOptions(options: StockDatabaseOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url: options.databaseUrl,
    entities: [CouponEntity, StockSegmentEntity, GrantEntity],
    migrations: [InitialSchema1763800000000],
    synchronize: false,
    migrationsRun: false,
    // Fail fast while PostgreSQL is down rather than queue requests behind a dead pool.
    extra: { max: options.poolSize ?? 20, connectionTimeoutMillis: 2000, query_timeout: 15000 },
  };
}
