import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { StackConfig } from './config';
import { startControlServer } from './control-server';
import { assertPortsFree } from './ports';
import { runMigrations } from './migrate';
import type { RunningChild } from './servers/child';
import { httpStatus } from './servers/http-probe';
import { startNginxServer } from './servers/nginx-server';
import { postgresUrl, startPostgresServer } from './servers/postgres-server';
import { startRedisServer } from './servers/redis-server';
import { superviseReplica, type SupervisedReplica } from './servers/replica';
import { pidFile, removeStackFile, writeStackFile, type StackInfo } from './stack-file';

const DATABASE = 'oversell';

class Stopped extends Error {
  override readonly name = 'StackStopped';
  readonly code = 'STACK.STOPPED';
  constructor() {
    super('the stack was stopped while starting');
  }
}

/**
 * Owns every server of one local stack: starts them in order, keeps the replicas alive,
 * stops them all. Faults (a killed replica, a stopped Redis) are injected through it.
 */
export class Supervisor {
  private postgres?: RunningChild;
  private redis?: RunningChild;
  private readonly redlock: Array<RunningChild | undefined> = [];
  private readonly replicas: SupervisedReplica[] = [];
  private nginx?: RunningChild;
  private control?: Server;
  private stopping = false;
  private started = false;
  private starting?: Promise<void>;
  private writes = Promise.resolve();
  private readonly stopRequested: Promise<never>;
  private requestStop!: () => void;

  constructor(
    readonly config: StackConfig,
    private readonly log: (line: string) => void = console.log,
  ) {
    this.stopRequested = new Promise<never>((_, reject) => {
      this.requestStop = () => reject(new Stopped());
    });
    this.stopRequested.catch(() => undefined);
  }

  /** Long waits end as soon as a stop is asked for. */
  private interruptible<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.stopRequested]);
  }

  get redisUrl() {
    return `redis://127.0.0.1:${this.config.ports.redis}`;
  }
  get redlockUrls() {
    return this.config.ports.redlock.map((p) => `redis://127.0.0.1:${p}`);
  }
  get databaseUrl() {
    return postgresUrl(this.config.ports.postgres, DATABASE);
  }
  get nginxUrl() {
    return `http://127.0.0.1:${this.config.ports.nginx}`;
  }

  start(): Promise<void> {
    this.starting ??= this.startInOrder();
    return this.starting;
  }

  private check(): void {
    if (this.stopping) throw new Stopped();
  }

  private async startInOrder(): Promise<void> {
    const { config } = this;
    mkdirSync(config.dir, { recursive: true });
    // Missing build or busy ports: fail before anything starts.
    if (!existsSync(config.replicaEntry))
      throw new Error(`${config.replicaEntry} does not exist: run \`npm run build\` first`);
    if (!existsSync(config.migrateEntry) && !config.replicaEntryOverridden) {
      throw new Error(`${config.migrateEntry} does not exist: run \`npm run build\` first`);
    }
    const { api, redlock, ...single } = config.ports;
    await assertPortsFree([...Object.values(single), ...api, ...redlock]);
    this.log(`starting the stack in ${config.dir}`);
    this.postgres = await this.startPostgres();
    this.check();
    this.redis = await this.startRedis();
    this.check();
    for (let i = 0; i < config.ports.redlock.length; i += 1) {
      this.redlock[i] = await this.startRedlock(i);
      this.check();
    }
    if (existsSync(config.migrateEntry)) {
      await runMigrations(config.migrateEntry, this.databaseUrl, this.log);
    } else {
      this.log(
        `warning: ${config.migrateEntry} is missing; migrations skipped for the stand-in replica ${config.replicaEntry}`,
      );
    }
    this.check();
    const earlyExit = new Promise<never>((_, reject) => {
      config.ports.api.forEach((port, i) =>
        this.replicas.push(
          this.startReplica(i, port, (how) => {
            // Its stack trace without the frames: the message is what tells why.
            const last = this.replicas[i]?.lastLines.filter((l) => !/^\[[\w-]+\]\s*(at .*)?$/.test(l)) ?? [];
            if (!this.started)
              reject(
                new Error(`api-${i + 1} exited during startup (${how}); its last lines:\n${last.slice(-8).join('\n')}`),
              );
          }),
        ),
      );
    });
    earlyExit.catch(() => undefined);
    this.nginx = await this.startNginx();
    this.check();
    await this.interruptible(Promise.race([earlyExit, Promise.all(this.replicas.map((r) => r.waitHealthy(60000)))]));
    this.check();
    const status = await httpStatus(`${this.nginxUrl}/health`);
    if (status !== 200) throw new Error(`GET ${this.nginxUrl}/health answered ${status}`);
    this.control = await startControlServer(this, config.ports.control);
    this.started = true;
    await this.writeInfo();
    this.log(`stack ready: ${this.nginxUrl} (control ${this.controlUrl})`);
  }

  get controlUrl() {
    return `http://127.0.0.1:${this.config.ports.control}`;
  }

  private watch(child: RunningChild): RunningChild {
    void child.exited.then((how) => {
      if (!this.stopping) this.log(`${child.name} exited (${how})`);
    });
    return child;
  }

  async startPostgres(): Promise<RunningChild> {
    const server = await startPostgresServer({
      port: this.config.ports.postgres,
      dir: join(this.config.dir, 'pg'),
      database: DATABASE,
      log: this.log,
    });
    return this.watch(server);
  }

  async startRedis(): Promise<RunningChild> {
    return this.watch(
      await startRedisServer({ port: this.config.ports.redis, dir: join(this.config.dir, 'redis'), detached: true }),
    );
  }

  async startRedlock(index: number): Promise<RunningChild> {
    const port = this.config.ports.redlock[index];
    return this.watch(await startRedisServer({ port, dir: join(this.config.dir, `redlock-${index}`), detached: true }));
  }

  private startReplica(index: number, port: number, onExit: (how: number | NodeJS.Signals) => void): SupervisedReplica {
    const { config } = this;
    return superviseReplica({
      id: `api-${index + 1}`,
      port,
      entry: config.replicaEntry,
      env: {
        ...process.env,
        DATABASE_URL: this.databaseUrl,
        REDIS_URL: this.redisUrl,
        REDLOCK_URLS: this.redlockUrls.join(','),
        DATABASE_POOL_SIZE: String(config.databasePoolSize),
        ADMIN_TOKEN: config.adminToken,
        CHAOS_ENABLED: String(config.chaos),
        // Their output goes to a log file, not a terminal: no colour codes.
        NO_COLOR: '1',
      },
      onStart: (replica) => {
        this.log(`${replica.id} started (pid ${replica.pid})`);
        void this.writeInfo();
      },
      onExit,
      log: this.log,
    });
  }

  private async startNginx(): Promise<RunningChild> {
    const server = await startNginxServer({
      port: this.config.ports.nginx,
      upstreamPorts: this.config.ports.api,
      prefix: join(this.config.dir, 'nginx'),
      log: this.log,
    });
    return this.watch(server);
  }

  /** stack.json plus what the control endpoint knows: restarts and which servers run. */
  state() {
    const info = this.info();
    return {
      ...info,
      replicas: this.replicas.map((r) => ({ id: r.id, url: r.url, pid: r.pid ?? 0, restarts: r.restarts })),
      running: {
        postgres: info.pids.postgres !== undefined,
        redis: info.pids.redis !== undefined,
        redlock: info.pids.redlock.map((pid) => pid !== undefined),
        nginx: info.pids.nginx !== undefined,
      },
    };
  }

  replica(id: string): SupervisedReplica | undefined {
    return this.replicas.find((r) => r.id === id);
  }

  info(): StackInfo {
    const { config } = this;
    return {
      nginxUrl: this.nginxUrl,
      replicas: this.replicas.map((r) => ({ id: r.id, url: r.url, pid: r.pid ?? 0 })),
      databaseUrl: this.databaseUrl,
      redisUrl: this.redisUrl,
      adminToken: config.adminToken,
      chaos: config.chaos,
      databasePoolSize: config.databasePoolSize,
      controlUrl: this.controlUrl,
      redlockUrls: this.redlockUrls,
      dir: config.dir,
      supervisorPid: process.pid,
      ports: config.ports,
      pids: {
        postgres: alive(this.postgres),
        redis: alive(this.redis),
        redlock: config.ports.redlock.map((_, i) => alive(this.redlock[i])),
        nginx: alive(this.nginx),
      },
    };
  }

  /** Rewrites stack.json (pids change on restarts and faults); only once the stack is up. */
  writeInfo(): Promise<void> {
    this.writes = this.writes
      .then(async () => {
        if (this.started && !this.stopping) await writeStackFile(this.info());
      })
      .catch((error) => this.log(`could not write stack.json: ${error}`));
    return this.writes;
  }

  // Fault injection: each stop really stops the server; each start reuses its data directory.
  async stopRedis() {
    await this.redis?.stop('SIGTERM');
    this.redis = undefined;
    await this.writeInfo();
  }
  async startRedisAgain() {
    this.redis ??= await this.startRedis();
    await this.writeInfo();
  }
  async stopPostgres() {
    await this.postgres?.stop('SIGINT', 10000);
    this.postgres = undefined;
    await this.writeInfo();
  }
  async startPostgresAgain() {
    this.postgres ??= await this.startPostgres();
    await this.writeInfo();
  }
  async stopRedlock(i: number) {
    await this.redlock[i]?.stop('SIGTERM');
    this.redlock[i] = undefined;
    await this.writeInfo();
  }
  async startRedlockAgain(i: number) {
    this.redlock[i] ??= await this.startRedlock(i);
    await this.writeInfo();
  }

  /** Stops everything, front to back; safe to call at any time, more than once. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.requestStop();
    await this.starting?.catch(() => undefined);
    await this.writes;
    // Only this supervisor's own files: a start that failed (ports taken) must not erase another stack's.
    if (this.started) await removeStackFile(this.config.dir);
    this.log('stopping the stack');
    this.control?.closeAllConnections();
    this.control?.close();
    await this.nginx?.stop('SIGQUIT', 5000);
    await Promise.all(this.replicas.map((r) => r.stop()));
    await Promise.all([this.redis, ...this.redlock].filter((s) => s !== undefined).map((s) => s.stop('SIGTERM', 5000)));
    await this.postgres?.stop('SIGINT', 10000);
    if (readPid(pidFile(this.config.dir)) === process.pid) await rm(pidFile(this.config.dir), { force: true });
    this.log('stack stopped');
  }
}

function readPid(file: string): number | undefined {
  try {
    return Number(readFileSync(file, 'utf8').trim());
  } catch {
    return undefined;
  }
}

function alive(child: RunningChild | undefined): number | undefined {
  return child && child.child.exitCode === null && child.child.signalCode === null ? child.child.pid : undefined;
}
