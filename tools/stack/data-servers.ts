import { join } from 'node:path';
import { appendOnlyArgs, type StackConfig } from './config';
import type { RunningChild } from './servers/child';
import { ClusterRedis } from './redis/cluster-redis';
import type { RedisEndpoints, RedisStartOptions, RedisTopology } from './redis/redis-topology';
import { SentinelRedis } from './redis/sentinel-redis';
import { SingleRedis } from './redis/single-redis';
import { postgresUrl, startPostgresServer } from './servers/postgres-server';
import { startRedisServer } from './servers/redis-server';

const DATABASE = 'oversell';

/**
 * The stack's data servers: PostgreSQL, the Redis the replicas lock with (one server, a primary
 * with Sentinels, or a cluster, by REDIS_MODE), and the independent Redis nodes of redlock. Each stop
 * really stops its server; each start reuses its data directory, so faults are injected by
 * stopping and starting them.
 */
export class DataServers {
  private postgres?: RunningChild;
  private readonly redis: RedisTopology;
  private readonly redlock: Array<RunningChild | undefined> = [];

  constructor(
    private readonly config: StackConfig,
    private readonly log: (line: string) => void,
    /** Told when a server exits while it was meant to run. */
    private readonly onUnexpectedExit: (name: string, how: number | NodeJS.Signals) => void,
  ) {
    this.redis = redisTopology(config, onUnexpectedExit);
  }

  get databaseUrl(): string {
    return postgresUrl(this.config.ports.postgres, DATABASE);
  }
  get redisUrl(): string {
    return this.redis.endpoints().redisUrl;
  }
  redisEndpoints(): RedisEndpoints {
    return this.redis.endpoints();
  }
  get redlockUrls(): string[] {
    return this.config.ports.redlock.map((p) => `redis://127.0.0.1:${p}`);
  }

  /** Where the replicas find them. */
  replicaEnv(): NodeJS.ProcessEnv {
    return { DATABASE_URL: this.databaseUrl, ...this.redis.replicaEnv(), REDLOCK_URLS: this.redlockUrls.join(',') };
  }

  /** Starts every server in order; `check` throws when the stack is being stopped meanwhile. */
  async start(check: () => void): Promise<void> {
    this.postgres = await this.startPostgres();
    check();
    await this.redis.start(check);
    check();
    for (let i = 0; i < this.config.ports.redlock.length; i += 1) {
      this.redlock[i] = await this.startRedlock(i);
      check();
    }
  }

  pids() {
    return {
      postgres: alive(this.postgres),
      redis: this.redis.pids(),
      redlock: this.config.ports.redlock.map((_, i) => alive(this.redlock[i])),
    };
  }

  /** The fault: the server, the current primary, or the master of `key`'s slot; `signal` SIGKILL skips the AOF flush. */
  stopRedis(key?: string, signal?: NodeJS.Signals): Promise<{ stopped: string }> {
    return this.redis.stopPrimary(key, signal);
  }
  startRedisAgain(options?: RedisStartOptions): Promise<void> {
    return this.redis.startAgain(options);
  }
  async stopPostgres(): Promise<void> {
    await this.postgres?.stop('SIGINT', 10000);
    this.postgres = undefined;
  }
  async startPostgresAgain(): Promise<void> {
    this.postgres ??= await this.startPostgres();
  }
  async stopRedlock(i: number): Promise<void> {
    await this.redlock[i]?.stop('SIGTERM');
    this.redlock[i] = undefined;
  }
  async startRedlockAgain(i: number): Promise<void> {
    this.redlock[i] ??= await this.startRedlock(i);
  }

  /** Redis first, PostgreSQL last: the replicas are stopped by then. */
  async stop(): Promise<void> {
    const redlock = this.redlock.filter((s): s is RunningChild => s !== undefined);
    this.redlock.fill(undefined);
    await Promise.all([this.redis.stop(), ...redlock.map((s) => s.stop('SIGTERM', 5000))]);
    await this.postgres?.stop('SIGINT', 10000);
    this.postgres = undefined;
  }

  private watch(child: RunningChild): RunningChild {
    void child.exited.then((how) => this.onUnexpectedExit(child.name, how));
    return child;
  }

  private async startPostgres(): Promise<RunningChild> {
    const dir = join(this.config.dir, 'pg');
    return this.watch(
      await startPostgresServer({
        port: this.config.ports.postgres,
        dir,
        database: DATABASE,
        fsync: this.config.postgresFsync,
        log: this.log,
      }),
    );
  }

  private async startRedlock(index: number): Promise<RunningChild> {
    const port = this.config.ports.redlock[index];
    return this.watch(await startRedisServer({ port, dir: join(this.config.dir, `redlock-${index}`), detached: true }));
  }
}

export function alive(child: RunningChild | undefined): number | undefined {
  return child && child.child.exitCode === null && child.child.signalCode === null ? child.child.pid : undefined;
}

function redisTopology(
  config: StackConfig,
  onExit: (name: string, how: number | NodeJS.Signals) => void,
): RedisTopology {
  const dir = join(config.dir, 'redis');
  const { redisPorts: p } = config;
  if (config.redisMode === 'cluster') return new ClusterRedis({ nodes: p.cluster, bus: p.clusterBus }, dir, onExit);
  if (config.redisMode === 'sentinel') {
    return new SentinelRedis({ primary: config.ports.redis, replica: p.replica, sentinels: p.sentinels }, dir, onExit);
  }
  return new SingleRedis(config.ports.redis, dir, onExit, appendOnlyArgs(config.redisAppendFsync));
}
