import { Pool, type PoolClient, type QueryResultRow } from 'pg';
import { translateDbError } from '../pg-errors';

export interface StockDatabaseOptions {
  readonly databaseUrl: string;
  /** Connections per process. */
  readonly poolSize?: number;
  /** Shown in pg_stat_activity. */
  readonly applicationName?: string;
  /** PostgreSQL cancels a statement after this long (default STATEMENT_TIMEOUT_MS). */
  readonly statementTimeoutMs?: number;
}

/** The server's limit on one statement: a statement it cancels never commits. */
export const STATEMENT_TIMEOUT_MS = 10_000;
/** How long a query waits for a connection (a free one of the pool, or a new one) before failing. */
export const CONNECT_TIMEOUT_MS = 2000;

/** The longest a statement can still commit after it was asked for: its wait for a connection, then its run. */
export function statementLifeMs(statementTimeoutMs: number = STATEMENT_TIMEOUT_MS): number {
  return CONNECT_TIMEOUT_MS + statementTimeoutMs;
}
/**
 * How much longer the client waits than the server: a statement the client gave up on has been
 * cancelled by then, so an error it caught never hides a commit (redis-lua gives its unit back on
 * that error).
 */
export const CLIENT_MARGIN_MS = 5000;

/** One statement of a transaction, or of the pool; `name` prepares it once per connection. */
export type RunQuery = <R extends QueryResultRow>(text: string, values?: unknown[], name?: string) => Promise<R[]>;

/**
 * The stock library's own node-postgres pool. Every statement on a hot path is named, so each
 * connection parses and plans it once. Connection failures come out as StockUnavailableError.
 */
export class StockDatabase {
  private readonly pool: Pool;

  constructor(readonly options: StockDatabaseOptions) {
    const statementTimeoutMs = options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS;
    this.pool = new Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 20,
      application_name: options.applicationName ?? 'oversell',
      // Fail fast while PostgreSQL is down rather than queue requests behind a dead pool.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      statement_timeout: statementTimeoutMs,
      query_timeout: statementTimeoutMs + CLIENT_MARGIN_MS,
    });
    // An idle client's connection dying is reported here; the pool replaces it on next use.
    this.pool.on('error', () => undefined);
  }

  readonly query: RunQuery = async <R extends QueryResultRow>(text: string, values?: unknown[], name?: string) => {
    try {
      return (await this.pool.query<R>({ text, values, name })).rows;
    } catch (error) {
      return translateDbError(error);
    }
  };

  /** BEGIN … COMMIT on one connection; ROLLBACK when `body` throws. */
  async transaction<T>(body: (query: RunQuery) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      return translateDbError(error);
    }
    let broken: unknown;
    // A checked-out client whose connection dies (PostgreSQL stopped) emits 'error'; unheard, that
    // would kill the process. The failed query already tells the caller; the client is then discarded.
    const onError = (error: Error) => (broken = error);
    client.on('error', onError);
    const query: RunQuery = async <R extends QueryResultRow>(text: string, values?: unknown[], name?: string) => {
      try {
        return (await client.query<R>({ text, values, name })).rows;
      } catch (error) {
        return translateDbError(error);
      }
    };
    try {
      await query('BEGIN');
      const result = await body(query);
      await query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => (broken = rollbackError));
      throw error;
    } finally {
      client.off('error', onError);
      // A connection that died, or could not even roll back, is destroyed, not reused.
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  /** A read-only transaction whose statements all see one snapshot of the database (REPEATABLE READ). */
  snapshot<T>(body: (query: RunQuery) => Promise<T>): Promise<T> {
    return this.transaction(async (query) => {
      await query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
      return body(query);
    });
  }

  async ping(timeoutMs: number): Promise<boolean> {
    const timeout = new Promise<false>((resolve) => setTimeout(resolve, timeoutMs, false).unref());
    const ping = this.pool.query('SELECT 1').then(
      () => true,
      () => false,
    );
    return Promise.race([ping, timeout]);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
