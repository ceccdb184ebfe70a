import { join } from 'node:path';
import type { RunningChild } from '../servers/child';
import { startRedisServer } from '../servers/redis-server';

/**
 * A set of redis-server processes on fixed ports, each restartable in place. A node that was
 * stopped on purpose is remembered, so `startStopped` brings back exactly those.
 */
export class RedisNodes {
  private readonly running = new Map<number, RunningChild>();
  private readonly stopped = new Set<number>();

  constructor(
    private readonly dir: string,
    private readonly argsFor: (port: number) => string[],
    private readonly onExit: (name: string, how: number | NodeJS.Signals) => void,
  ) {}

  async start(port: number): Promise<void> {
    const server = await startRedisServer({
      port,
      dir: join(this.dir, String(port)),
      // A new replica's full sync starts at once, not after Redis's default 5 s wait for others to
      // share it: under WAIT no lock can be had until the promoted primary has that replica online.
      args: ['--repl-diskless-sync-delay', '0', ...this.argsFor(port)],
      detached: true,
    });
    void server.exited.then((how) => {
      if (this.running.get(port) === server) this.onExit(server.name, how);
    });
    this.running.set(port, server);
    this.stopped.delete(port);
  }

  async stopOne(port: number, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const server = this.running.get(port);
    this.running.delete(port);
    this.stopped.add(port);
    await server?.stop(signal, 5000);
  }

  async startStopped(): Promise<void> {
    for (const port of [...this.stopped]) await this.start(port);
  }

  pid(port: number): number | undefined {
    const child = this.running.get(port)?.child;
    return child && child.exitCode === null && child.signalCode === null ? child.pid : undefined;
  }

  async stopAll(): Promise<void> {
    const servers = [...this.running.values()];
    this.running.clear();
    await Promise.all(servers.map((s) => s.stop('SIGTERM', 5000)));
  }
}

export const redisUrl = (port: number) => `redis://127.0.0.1:${port}`;
