import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * One statement straight on TypeORM's own pg pool, prepared once per connection under `name`: no
 * query runner around it, and PostgreSQL neither parses nor plans it again. For the statements
 * that run while a lock is held, where every fraction of a millisecond is throughput.
 */
export async function preparedQuery<R extends object>(
  db: DataSource,
  name: string,
  text: string,
  values: unknown[],
): Promise<R[]> {
  const pool = (db.driver as PostgresDriver).master as Pool;
  const result = await pool.query<R>({ name, text, values });
  return result.rows;
}
