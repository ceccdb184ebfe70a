import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import type { RunningChild } from '../../tools/stack/servers/child';
import { startRedisServer } from '../../tools/stack/servers/redis-server';
export { testPort } from '../ports';
export type { RunningChild };

/**
 * A Redis of a spec's own, for specs that stop, freeze or replicate a server (the shared test
 * Redis must stay up). Ports 26602–26619 (plus TEST_PORT_OFFSET) are this project's; each spec
 * takes its own, through `testPort`.
 */
export async function startPrivateRedis(port: number, args: string[] = []): Promise<RunningChild> {
  return startRedisServer({ port, dir: resolve('.stack/redis-test-private', String(port)), args });
}

/** Freezes (SIGSTOP) or thaws (SIGCONT) a server: a hung process, not a dead one. */
export function signalServer(server: RunningChild, signal: 'SIGSTOP' | 'SIGCONT'): void {
  process.kill(server.child.pid!, signal);
}

/** Resolves once `replica` reports its link to the primary up. */
export async function untilReplicaLinked(replica: Redis, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const info = await replica.info('replication');
    if (/master_link_status:up/.test(info)) return;
    if (Date.now() > deadline) throw new Error('replica never linked to its primary');
    await new Promise((r) => setTimeout(r, 20));
  }
}
