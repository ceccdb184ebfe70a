import { join } from 'node:path';
import type { StackConfig } from './config';
import type { RunningChild } from './servers/child';
import { postgresUrl, startPostgresServer } from './servers/postgres-server';
import { startRedisServer } from './servers/redis-server';

const DATABASE = 'oversell';

/**
 * The stack's data servers: PostgreSQL, the Redis the replicas lock with, and the independent
 * Redis nodes of redlock. Each stop really stops its server; each start reuses its data directory,
 * so faults are injected by stopping and starting them.
 */
export class DataServers {
  private postgres?: RunningChild;
  private redis?: RunningChild;
  private readonly redlock: Array<RunningChild | undefined> = [];

  constructor(
    private readonly config: StackConfig,
    private readonly log: (line: string) => void,
    /** Told when a server exits while it was meant to run. */
    private readonly onUnexpectedExit: (name: string, how: number | NodeJS.Signals) => void,
  ) {}

  get databaseUrl(): string {
    return postgresUrl(this.config.ports.postgres, DATABASE);
  }
  get redisUrl(): string {
    return `redis://127.0.0.1:${this.config.ports.redis}`;
  }
  get redlockUrls(): string[] {
    return this.config.ports.redlock.map((p) => `redis://127.0.0.1:${p}`);
  }

  /** Where the replicas find them. */
  replicaEnv(): NodeJS.ProcessEnv {
    return { DATABASE_URL: this.databaseUrl, REDIS_URL: this.redisUrl, REDLOCK_URLS: this.redlockUrls.join(',') };
  }

  /** Starts every server in order; `check` throws when the stack is being stopped meanwhile. */
  async start(check: () => void): Promise<void> {
    this.postgres = await this.startPostgres();
    check();
    this.redis = await this.startRedis();
    check();
    for (let i = 0; i < this.config.ports.redlock.length; i += 1) {
      this.redlock[i] = await this.startRedlock(i);
      check();
    }
  }

  pids() {
    return {
      postgres: alive(this.postgres),
      redis: alive(this.redis),
      redlock: this.config.ports.redlock.map((_, i) => alive(this.redlock[i])),
    };
  }

  async stopRedis(): Promise<void> {
    await this.redis?.stop('SIGTERM');
    this.redis = undefined;
  }
  async startRedisAgain(): Promise<void> {
    this.redis ??= await this.startRedis();
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
    const redis = [this.redis, ...this.redlock].filter((s): s is RunningChild => s !== undefined);
    this.redis = undefined;
    this.redlock.fill(undefined);
    await Promise.all(redis.map((s) => s.stop('SIGTERM', 5000)));
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
      await startPostgresServer({ port: this.config.ports.postgres, dir, database: DATABASE, log: this.log }),
    );
  }

  private async startRedis(): Promise<RunningChild> {
    const dir = join(this.config.dir, 'redis');
    return this.watch(await startRedisServer({ port: this.config.ports.redis, dir, detached: true }));
  }

  private async startRedlock(index: number): Promise<RunningChild> {
    const port = this.config.ports.redlock[index];
    return this.watch(await startRedisServer({ port, dir: join(this.config.dir, `redlock-${index}`), detached: true }));
  }
}

export function alive(child: RunningChild | undefined): number | undefined {
  return child && child.child.exitCode === null && child.child.signalCode === null ? child.child.pid : undefined;
}
