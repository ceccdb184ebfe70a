import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { askRedis, until } from './redis-admin';
import { RedisNodes, redisUrl } from './redis-nodes';
import type { RedisEndpoints, RedisTopology } from './redis-topology';

const run = promisify(execFile);

export interface ClusterPorts {
  /** Six nodes: three masters and a replica of each, as redis-cli assigns them. */
  readonly nodes: number[];
  /** Each node's cluster bus, set explicitly so it stays below 32768 too. */
  readonly bus: number[];
}

/**
 * A Redis Cluster of six nodes made by `redis-cli --cluster create`. Stopping a master is a crash
 * (SIGKILL): its replica is promoted after the node timeout; the node, started again with its
 * nodes.conf, rejoins as a replica.
 */
export class ClusterRedis implements RedisTopology {
  private readonly nodes: RedisNodes;

  constructor(
    private readonly ports: ClusterPorts,
    private readonly dir: string,
    onExit: (name: string, how: number | NodeJS.Signals) => void,
  ) {
    this.nodes = new RedisNodes(
      dir,
      (port) => [
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--cluster-node-timeout',
        '2000',
        '--cluster-port',
        String(ports.bus[ports.nodes.indexOf(port)]),
      ],
      onExit,
    );
  }

  async start(check: () => void): Promise<void> {
    // A cluster keeps nothing worth keeping (no persistence): every stack starts a new one.
    rmSync(this.dir, { recursive: true, force: true });
    for (const port of this.ports.nodes) await this.nodes.start(port);
    check();
    const addresses = this.ports.nodes.map((p) => `127.0.0.1:${p}`);
    await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '1', '--cluster-yes']);
    await until('the cluster did not settle', () => this.settled());
  }

  endpoints(): RedisEndpoints {
    return { redisUrl: redisUrl(this.ports.nodes[0]), redisClusterUrls: this.ports.nodes.map(redisUrl) };
  }

  replicaEnv(): NodeJS.ProcessEnv {
    return { REDIS_URL: redisUrl(this.ports.nodes[0]), REDIS_CLUSTER_URLS: this.ports.nodes.map(redisUrl).join(',') };
  }

  pids(): Record<string, number | undefined> {
    return Object.fromEntries(this.ports.nodes.map((port) => [String(port), this.nodes.pid(port)]));
  }

  /** Kills the master that owns `key`'s slot (or the first master). */
  async stopPrimary(key = 'lock:{coupon:1}'): Promise<{ stopped: string }> {
    const port = await this.masterFor(key);
    await this.nodes.stopOne(port, 'SIGKILL');
    return { stopped: redisUrl(port) };
  }

  startAgain = () => this.nodes.startStopped();
  stop = () => this.nodes.stopAll();

  /** Every running node says the cluster is ok and all 16384 slots are served. */
  private async settled(): Promise<boolean> {
    const up = this.ports.nodes.filter((p) => this.nodes.pid(p) !== undefined);
    const infos = await Promise.all(up.map((p) => askRedis(p, (r) => r.cluster('INFO'))));
    return infos.every((i) => /cluster_state:ok/.test(i) && /cluster_slots_ok:16384/.test(i));
  }

  private async masterFor(key: string): Promise<number> {
    const port = this.ports.nodes.find((p) => this.nodes.pid(p) !== undefined)!;
    return askRedis(port, async (r) => {
      const slot = await r.cluster('KEYSLOT', key);
      const ranges = await r.cluster('SLOTS');
      const owner = ranges.find(([from, to]) => slot >= from && slot <= to)?.[2];
      if (!owner) throw new Error(`no master serves slot ${slot}`);
      return Number(owner[1]);
    });
  }
}
