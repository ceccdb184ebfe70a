import { DataSource } from 'typeorm';
import { InitialSchema1763800000000 } from './migrations/1763800000000-initial-schema';
import { GrantBatches1764000000000 } from './migrations/1764000000000-grant-batches';
import { StreamOrders1764100000000 } from './migrations/1764100000000-stream-orders';
import { Holds1764200000000 } from './migrations/1764200000000-holds';
import { CounterEpochs1764300000000 } from './migrations/1764300000000-counter-epochs';
import { CouponRooms1764400000000 } from './migrations/1764400000000-coupon-rooms';

/** The schema's history, oldest first; TypeORM records which ran in its `migrations` table. */
export const STOCK_MIGRATIONS = [
  InitialSchema1763800000000,
  GrantBatches1764000000000,
  StreamOrders1764100000000,
  Holds1764200000000,
  CounterEpochs1764300000000,
  CouponRooms1764400000000,
];

/** Applies pending migrations; returns the names of those it ran. Run once, before the replicas start. */
export async function runStockMigrations(databaseUrl: string): Promise<string[]> {
  const db = new DataSource({ type: 'postgres', url: databaseUrl, migrations: STOCK_MIGRATIONS, extra: { max: 1 } });
  await db.initialize();
  try {
    const ran = await db.runMigrations({ transaction: 'each' });
    return ran.map((m) => m.name);
  } finally {
    await db.destroy();
  }
}
