import { resolve } from 'node:path';
import { startChild, waitFor, type RunningChild } from '../../../tools/stack/servers/child';
import type { StackInfo } from './stack';

export interface ExtraReplica {
  readonly url: string;
  /** The replica's process, for a spec that signals it or waits for its exit. */
  readonly child: RunningChild;
  stop(): Promise<void>;
}

const ENTRY = resolve(__dirname, '../../../dist/apps/api/apps/api/src/main.js');

/**
 * One more replica on the stack's PostgreSQL and Redis, as our own child process (not one of the
 * stack's, which the supervisor would restart).
 */
export async function startExtraReplica(
  info: StackInfo,
  replica: { id: string; port: number; chaos: boolean },
  /** Settings over the stack's (REDIS_URL, LOCK_WAIT_REPLICAS, …), and the health that means started. */
  overrides: { env?: NodeJS.ProcessEnv; startedWhen?: (healthStatus: number) => boolean } = {},
): Promise<ExtraReplica> {
  const startedWhen = overrides.startedWhen ?? ((status: number) => status === 200);
  const child = startChild(replica.id, process.execPath, [ENTRY], {
    env: {
      ...process.env,
      PORT: String(replica.port),
      REPLICA_ID: replica.id,
      DATABASE_URL: info.databaseUrl,
      REDIS_URL: info.redisUrl,
      ADMIN_TOKEN: info.adminToken,
      CHAOS_ENABLED: String(replica.chaos),
      LOG_LEVEL: 'warn',
      ...overrides.env,
    },
  });
  child.child.stdout?.resume();
  child.child.stderr?.resume();
  const url = `http://127.0.0.1:${replica.port}`;
  await waitFor(
    `the replica ${replica.id}`,
    async () => startedWhen((await fetch(`${url}/health`)).status),
    60_000,
    100,
  );
  return { url, child, stop: () => child.stop('SIGTERM') };
}

/** An extra replica started as compose would: chaos off. */
export function startChaosOffReplica(info: StackInfo, port: number): Promise<ExtraReplica> {
  return startExtraReplica(info, { id: 'api-nochaos', port, chaos: false });
}
