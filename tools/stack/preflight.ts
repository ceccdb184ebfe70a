import { existsSync, readFileSync } from 'node:fs';
import { activeRedisPorts, type StackConfig } from './config';
import { runMigrations } from './migrate';
import { assertPortsFree } from './ports';

/** A missing build or a busy port fails the start before any server starts. */
export async function assertStartable(config: StackConfig): Promise<void> {
  if (!existsSync(config.replicaEntry)) {
    throw new Error(`${config.replicaEntry} does not exist: run \`npm run build\` first`);
  }
  if (!existsSync(config.migrateEntry) && !config.replicaEntryOverridden) {
    throw new Error(`${config.migrateEntry} does not exist: run \`npm run build\` first`);
  }
  const { api, redlock, redis: _redis, ...single } = config.ports;
  await assertPortsFree([...Object.values(single), ...api, ...redlock, ...activeRedisPorts(config)]);
}

/** The pid written in `file`, if any. */
export function readPid(file: string): number | undefined {
  try {
    return Number(readFileSync(file, 'utf8').trim());
  } catch {
    return undefined;
  }
}

/** The schema migrations, once, before any replica starts (a stand-in replica may come without them). */
export async function migrateIfBuilt(
  config: StackConfig,
  databaseUrl: string,
  log: (line: string) => void,
): Promise<void> {
  if (existsSync(config.migrateEntry)) return runMigrations(config.migrateEntry, databaseUrl, log);
  log(`warning: ${config.migrateEntry} is missing; migrations skipped for the stand-in replica ${config.replicaEntry}`);
}
