import { resolve } from 'node:path';
import { startChild, waitFor } from '../../../tools/stack/servers/child';
import type { StackInfo } from './stack';

export interface ExtraReplica {
  readonly url: string;
  stop(): Promise<void>;
}

const ENTRY = resolve(__dirname, '../../../dist/apps/api/apps/api/src/main.js');

/** One more replica on the stack's PostgreSQL and Redis, started as compose would: chaos off. */
export async function startChaosOffReplica(info: StackInfo, port: number): Promise<ExtraReplica> {
  const child = startChild('api-nochaos', process.execPath, [ENTRY], {
    env: {
      ...process.env,
      PORT: String(port),
      REPLICA_ID: 'api-nochaos',
      DATABASE_URL: info.databaseUrl,
      REDIS_URL: info.redisUrl,
      ADMIN_TOKEN: info.adminToken,
      CHAOS_ENABLED: 'false',
      LOG_LEVEL: 'warn',
    },
  });
  child.child.stdout?.resume();
  child.child.stderr?.resume();
  const url = `http://127.0.0.1:${port}`;
  await waitFor('the chaos-off replica', async () => (await fetch(`${url}/health`)).status === 200, 20_000, 100);
  return { url, stop: () => child.stop('SIGTERM') };
}
