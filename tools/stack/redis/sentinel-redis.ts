import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startChild, type RunningChild } from '../servers/child';
import { redisPing } from '../servers/redis-server';
import { askRedis, until } from './redis-admin';
import { RedisNodes, redisUrl } from './redis-nodes';
import { SENTINEL_MASTER_NAME, type RedisEndpoints, type RedisTopology } from './redis-topology';

export interface SentinelPorts {
  readonly primary: number;
  readonly replica: number;
  readonly sentinels: number[];
}

/**
 * A primary, its replica and three Sentinels (quorum 2). Stopping the primary is a crash
 * (SIGKILL): the Sentinels promote the replica within a few seconds; the old primary, started
 * again, comes back empty as a replica of the new one.
 */
export class SentinelRedis implements RedisTopology {
  private readonly nodes: RedisNodes;
  private readonly sentinels: RunningChild[] = [];
  private primaryPort: number;

  constructor(
    private readonly ports: SentinelPorts,
    private readonly dir: string,
    private readonly onExit: (name: string, how: number | NodeJS.Signals) => void,
  ) {
    this.primaryPort = ports.primary;
    this.nodes = new RedisNodes(
      dir,
      (port) => (port === this.primaryPort ? [] : ['--replicaof', '127.0.0.1', String(this.primaryPort)]),
      onExit,
    );
  }

  async start(check: () => void): Promise<void> {
    await this.nodes.start(this.ports.primary);
    await this.nodes.start(this.ports.replica);
    check();
    for (const port of this.ports.sentinels) this.sentinels.push(await this.startSentinel(port));
    // Ready once every Sentinel knows the replica and the two other Sentinels: a failover can then happen.
    await until('the Sentinels did not see each other and the replica', async () => {
      const views = await Promise.all(
        this.ports.sentinels.map((port) =>
          askRedis(port, (r) => r.call('SENTINEL', 'MASTER', SENTINEL_MASTER_NAME) as Promise<string[]>),
        ),
      );
      return views.every(
        (fields) => field(fields, 'num-slaves') === '1' && field(fields, 'num-other-sentinels') === '2',
      );
    });
  }

  endpoints(): RedisEndpoints {
    return {
      redisUrl: redisUrl(this.primaryPort),
      redisSentinelUrls: this.ports.sentinels.map(redisUrl),
      redisSentinelName: SENTINEL_MASTER_NAME,
    };
  }

  replicaEnv(): NodeJS.ProcessEnv {
    return {
      REDIS_URL: redisUrl(this.ports.primary),
      REDIS_SENTINEL_URLS: this.ports.sentinels.map(redisUrl).join(','),
      REDIS_SENTINEL_NAME: SENTINEL_MASTER_NAME,
    };
  }

  pids(): Record<string, number | undefined> {
    const pids: Record<string, number | undefined> = {};
    for (const port of [this.ports.primary, this.ports.replica]) pids[String(port)] = this.nodes.pid(port);
    this.sentinels.forEach((s, i) => (pids[`sentinel:${this.ports.sentinels[i]}`] = s.child.pid));
    return pids;
  }

  async stopPrimary(): Promise<{ stopped: string }> {
    const port = await this.currentPrimary();
    await this.nodes.stopOne(port, 'SIGKILL');
    return { stopped: redisUrl(port) };
  }

  async startAgain(): Promise<void> {
    this.primaryPort = await this.currentPrimary();
    await this.nodes.startStopped();
  }

  async stop(): Promise<void> {
    await Promise.all(this.sentinels.splice(0).map((s) => s.stop('SIGTERM', 5000)));
    await this.nodes.stopAll();
  }

  /** The primary as the Sentinels see it now. */
  private async currentPrimary(): Promise<number> {
    const [, port] = (await askRedis(this.ports.sentinels[0], (r) =>
      r.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_MASTER_NAME),
    )) as [string, string];
    return Number(port);
  }

  private async startSentinel(port: number): Promise<RunningChild> {
    const dir = join(this.dir, `sentinel-${port}`);
    mkdirSync(dir, { recursive: true });
    const conf = join(dir, 'sentinel.conf');
    // Sentinel rewrites its own file, so each gets one; a primary silent for 1 s is down.
    writeFileSync(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${SENTINEL_MASTER_NAME} 127.0.0.1 ${this.ports.primary} 2`,
        `sentinel down-after-milliseconds ${SENTINEL_MASTER_NAME} 1000`,
        `sentinel failover-timeout ${SENTINEL_MASTER_NAME} 5000`,
        '',
      ].join('\n'),
    );
    const sentinel = startChild(`sentinel:${port}`, 'redis-server', [conf, '--sentinel'], { detached: true });
    sentinel.child.stdout?.resume();
    sentinel.child.stderr?.resume();
    void sentinel.exited.then((how) => this.onExit(sentinel.name, how));
    await until(`the Sentinel on ${port} did not answer`, () => redisPing(port), 15_000);
    return sentinel;
  }
}

/** A field of SENTINEL MASTER's flat name/value answer. */
function field(fields: string[], name: string): string | undefined {
  const i = fields.indexOf(name);
  return i >= 0 ? fields[i + 1] : undefined;
}
