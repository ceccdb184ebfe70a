import { resolve } from 'node:path';
import { runStockMigrations } from '../../libs/stock/src/migrate';
import type { RunningChild } from '../../tools/stack/servers/child';
import { postgresUrl, startPostgresServer } from '../../tools/stack/servers/postgres-server';
export { testPort } from '../ports';
export type { RunningChild };

export interface PrivatePostgres {
  readonly server: RunningChild;
  /** The migrated database's URL. */
  readonly url: string;
}

/**
 * A PostgreSQL of a spec's own, with the stock schema, for the specs that check SQL the way it
 * runs (row locks, statement by statement). Stop it with `server.stop('SIGINT')`. Its data
 * directory is kept between runs (initdb is slow); each spec makes coupons of its own.
 */
export async function startPrivatePostgres(port: number): Promise<PrivatePostgres> {
  const server = await startPostgresServer({
    port,
    dir: resolve('.stack/pg-test-private', String(port)),
    database: 'oversell_test',
    fsync: false,
  });
  const url = postgresUrl(port, 'oversell_test');
  try {
    await runStockMigrations(url);
  } catch (error) {
    await server.stop('SIGINT', 10_000);
    throw error;
  }
  return { server, url };
}
