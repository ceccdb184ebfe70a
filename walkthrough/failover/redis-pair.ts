import Redis from 'ioredis';
import { startRedisServer } from '../../tools/stack/servers/redis-server';
import type { RunningChild } from '../../tools/stack/servers/child';
import { WaitTimeoutError } from '../walkthrough.errors';

// No diskless-sync delay (5 s by default): a replica syncs as soon as it connects. The replica
// needs it too: once promoted, it is the primary a new replica syncs from.
const NO_SYNC_DELAY = ['--repl-diskless-sync-delay', '0'];

/** A primary and its replica, started for one step and stopped by it. */
export class RedisPair {
  /** Replicas attached later to the promoted replica. */
  private readonly extra: RunningChild[] = [];

  private constructor(
    readonly primary: RunningChild,
    readonly replica: RunningChild,
    readonly primaryUrl: string,
    readonly replicaUrl: string,
  ) {}

  static async start(dir: string, primaryPort: number, replicaPort: number): Promise<RedisPair> {
    const primary = await startRedisServer({
      port: primaryPort,
      dir: `${dir}/primary-${primaryPort}`,
      args: NO_SYNC_DELAY,
    });
    let replica: RunningChild | undefined;
    try {
      replica = await startRedisServer({
        port: replicaPort,
        dir: `${dir}/replica-${replicaPort}`,
        args: [...NO_SYNC_DELAY, '--replicaof', '127.0.0.1', String(primaryPort)],
      });
      const pair = new RedisPair(
        primary,
        replica,
        `redis://127.0.0.1:${primaryPort}`,
        `redis://127.0.0.1:${replicaPort}`,
      );
      await waitForSync(pair.primaryUrl, pair.replicaUrl);
      return pair;
    } catch (error) {
      await replica?.stop('SIGKILL');
      await primary.stop('SIGKILL');
      throw error;
    }
  }

  /**
   * Replication held back, deterministically: the replica is stopped (it cannot reconnect), then the
   * primary drops its link. Nothing written on the primary from now on reaches the replica.
   */
  async holdBackReplication(): Promise<number> {
    process.kill(this.replica.child.pid!, 'SIGSTOP');
    const primary = new Redis(this.primaryUrl);
    try {
      return Number(await primary.client('KILL', 'TYPE', 'replica'));
    } finally {
      primary.disconnect();
    }
  }

  /** The primary dies at once (SIGKILL): what it had not replicated is gone. */
  async crashPrimary(): Promise<void> {
    await this.primary.stop('SIGKILL');
  }

  /** The replica resumes and is promoted (what Sentinel would do): it now answers writes. */
  async promoteReplica(): Promise<void> {
    process.kill(this.replica.child.pid!, 'SIGCONT');
    const replica = new Redis(this.replicaUrl);
    try {
      await replica.replicaof('NO', 'ONE');
    } finally {
      replica.disconnect();
    }
  }

  /** A fresh replica for the promoted one (the old primary's replacement), synced before returning. */
  async addReplica(dir: string, port: number): Promise<string> {
    const server = await startRedisServer({
      port,
      dir: `${dir}/replica-${port}`,
      args: [...NO_SYNC_DELAY, '--replicaof', '127.0.0.1', this.replicaUrl.split(':').pop()!],
    });
    this.extra.push(server);
    await waitForSync(this.replicaUrl, `redis://127.0.0.1:${port}`);
    return `redis://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    await Promise.all(this.extra.map((s) => s.stop('SIGTERM', 2000)));
    if (this.replica.child.exitCode === null && this.replica.child.signalCode === null) {
      try {
        process.kill(this.replica.child.pid!, 'SIGCONT');
      } catch {
        /* already gone */
      }
    }
    await Promise.all([this.primary.stop('SIGKILL'), this.replica.stop('SIGTERM', 2000)]);
  }
}

/** Until the replica reports its link up and has a key written on the primary. */
async function waitForSync(primaryUrl: string, replicaUrl: string, timeoutMs = 10_000): Promise<void> {
  const primary = new Redis(primaryUrl);
  const replica = new Redis(replicaUrl);
  try {
    const probe = `pair:probe:${Date.now()}`;
    await primary.set(probe, '1', 'PX', 60_000);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const info = await replica.info('replication');
      if (info.includes('master_link_status:up') && (await replica.get(probe)) === '1') return;
      if (Date.now() > deadline)
        throw new WaitTimeoutError(`replica ${replicaUrl} did not sync within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    primary.disconnect();
    replica.disconnect();
  }
}
