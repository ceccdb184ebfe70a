import type { RunningChild } from '../../tools/stack/servers/child';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __redisTestServer?: RunningChild }).__redisTestServer?.stop();
}
