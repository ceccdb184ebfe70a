import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';
import { PG_BIN } from '../binaries';
import { postgresDurabilityArgs } from '../config';
import { readyOrKilled, routeOutput, startChild, type RunningChild } from './child';

export interface PostgresServerOptions {
  readonly port: number;
  /** Receives the server's output lines from the start (else they are dropped). */
  readonly log?: (line: string) => void;
  /** Owns `data/`; must belong to the user the server runs as. */
  readonly dir: string;
  /** Created once the server answers. */
  readonly database: string;
  /** false: no fsync and no synchronous commit (a commit costs almost nothing; a crash may lose it). */
  readonly fsync: boolean;
}

interface Owner {
  uid: number;
  gid: number;
}

// PostgreSQL refuses to run as root: as root, run initdb and the server as user postgres.
function owner(): Owner | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

function usableBy(as: Owner, dir: string): boolean {
  try {
    execFileSync('test', ['-w', dir], { ...as, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The data directory, initialised once. When user postgres cannot reach `dir` (a checkout under
 * /root, mode 700), the cluster lives in /var/tmp instead, linked from `dir/data`.
 */
function prepare(dir: string, as: Owner | undefined, log: (line: string) => void): string {
  mkdirSync(dir, { recursive: true });
  let data = join(dir, 'data');
  if (as) {
    chownSync(dir, as.uid, as.gid);
    if (!usableBy(as, dir)) {
      const outside = join(
        '/var/tmp/oversell-lab-pg',
        createHash('sha1').update(resolve(dir)).digest('hex').slice(0, 12),
      );
      mkdirSync(dirname(outside), { recursive: true, mode: 0o755 });
      mkdirSync(outside, { recursive: true, mode: 0o700 });
      chownSync(outside, as.uid, as.gid);
      if (!existsSync(data)) symlinkSync(join(outside, 'data'), data);
      data = join(outside, 'data');
      log(`user postgres cannot reach ${dir}: the cluster lives in ${data}`);
    }
  }
  if (!existsSync(join(data, 'PG_VERSION'))) {
    try {
      execFileSync(join(PG_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'], {
        stdio: ['ignore', 'ignore', 'pipe'],
        ...as,
      });
    } catch (error) {
      throw new Error(`initdb of ${data} failed: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`, {
        cause: error,
      });
    }
  }
  return data;
}

export function postgresUrl(port: number, database: string): string {
  return `postgres://postgres@127.0.0.1:${port}/${database}`;
}

async function query(port: number, database: string, sql: string): Promise<number> {
  const client = new Client({ connectionString: postgresUrl(port, database), connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return (await client.query(sql)).rowCount ?? 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A private PostgreSQL on 127.0.0.1 (TCP only), with `database` created. Stop it with SIGINT (fast shutdown). */
export async function startPostgresServer(options: PostgresServerOptions): Promise<RunningChild> {
  const as = owner();
  const data = prepare(options.dir, as, options.log ?? (() => undefined));
  // No Unix socket: nothing is written outside `dir`.
  const args = [
    '-D',
    data,
    '-p',
    String(options.port),
    '-h',
    '127.0.0.1',
    '-c',
    'unix_socket_directories=',
    ...postgresDurabilityArgs(options.fsync),
    '-c',
    'max_connections=200',
  ];
  const server = startChild(`postgres:${options.port}`, join(PG_BIN, 'postgres'), args, { ...as, detached: true });
  routeOutput(server, options.log);
  await readyOrKilled(
    server,
    `postgres on ${options.port}`,
    async () => (await query(options.port, 'postgres', 'SELECT 1')) === 1,
    'is the port free? see its log above',
  );
  const exists = await query(
    options.port,
    'postgres',
    `SELECT 1 FROM pg_database WHERE datname = '${options.database}'`,
  );
  if (!exists) await query(options.port, 'postgres', `CREATE DATABASE "${options.database}"`);
  return server;
}
