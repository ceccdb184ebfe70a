import { startRedisServer } from '../../tools/stack/servers/redis-server';
import { testPort } from '../ports';

// One private Redis for the lock specs; each spec namespaces its keys. Specs that stop a
// server start their own.
export default async function globalSetup(): Promise<void> {
  const port = Number(process.env.REDIS_TEST_PORT ?? testPort(26900));
  const server = await startRedisServer({ port, dir: `.stack/redis-test-${port}` });
  process.env.REDIS_TEST_URL = `redis://127.0.0.1:${port}`;
  (globalThis as { __redisTestServer?: unknown }).__redisTestServer = server;
}
