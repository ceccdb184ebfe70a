import { DataSource } from 'typeorm';
import { stockDataSourceOptions } from './data-source-options';

/** Applies pending migrations; returns the names of those it ran. */
export async function runStockMigrations(databaseUrl: string): Promise<string[]> {
  const db = new DataSource(stockDataSourceOptions({ databaseUrl, poolSize: 1 }));
  await db.initialize();
  try {
    const ran = await db.runMigrations({ transaction: 'each' });
    return ran.map((m) => m.name);
  } finally {
    await db.destroy();
  }
}
