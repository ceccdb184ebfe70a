import { Client } from 'pg';

/**
 * One past the last transaction id PostgreSQL completed. Every transaction that writes takes an
 * id (and, with durable commits, flushes the WAL once); a read-only one takes none. Read from a
 * snapshot, so reading it takes no id itself.
 */
const NEXT_XID_SQL = 'SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next';

/** `work`, and the transactions that wrote while it ran: the database's own count, not the client's. */
export async function countingCommits<T>(
  databaseUrl: string,
  work: () => Promise<T>,
): Promise<{ result: T; commits: number }> {
  const db = new Client({ connectionString: databaseUrl, application_name: 'oversell:bench-commits' });
  await db.connect();
  try {
    const next = async () => Number((await db.query<{ next: string }>(NEXT_XID_SQL)).rows[0].next);
    const before = await next();
    const result = await work();
    return { result, commits: (await next()) - before };
  } finally {
    await db.end();
  }
}
