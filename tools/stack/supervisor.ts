import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { StackConfig } from './config';
import { startControlServer } from './control-server';
import { alive, DataServers } from './data-servers';
import type { RedisStartOptions } from './redis/redis-topology';
import { assertStartable, migrateIfBuilt, readPid } from './preflight';
import type { RunningChild } from './servers/child';
import { superviseLab } from './lab-process';
import { httpStatus } from './servers/http-probe';
import { startNginxServer } from './servers/nginx-server';
import type { SupervisedReplica } from './servers/replica';
import { ReplicaSet } from './replica-set';
import type { StackControl } from './stack-control';
import { stackState } from './stack-state';
import { pidFile, removeStackFile, writeStackFile, type StackInfo } from './stack-file';
import { Stopped } from './stopped.error';

/**
 * Owns every server of one local stack: starts them in order, keeps the replicas alive,
 * stops them all. Faults (a killed replica, a stopped Redis) are injected through it.
 */
export class Supervisor implements StackControl {
  private readonly data: DataServers;
  private replicas?: ReplicaSet;
  private lab?: SupervisedReplica;
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
    this.data = new DataServers(config, log, (name, how) => {
      if (!this.stopping) this.log(`${name} exited (${how})`);
    });
  }

  /** Long waits end as soon as a stop is asked for. */
  private interruptible<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.stopRequested]);
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
    await assertStartable(config);
    this.log(`starting the stack in ${config.dir}`);
    await this.data.start(() => this.check());
    await migrateIfBuilt(config, this.data.databaseUrl, this.log);
    this.check();
    const env = {
      ...process.env,
      ...this.data.replicaEnv(),
      DATABASE_POOL_SIZE: String(config.databasePoolSize),
      ADMIN_TOKEN: config.adminToken,
      CHAOS_ENABLED: String(config.chaos),
    };
    const onStart = () => void this.writeInfo();
    this.replicas = new ReplicaSet({ config, env, onStart, log: this.log });
    const { nginxUrl, controlUrl, log } = this;
    this.lab = superviseLab({ config, nginxUrl, controlUrl, env, onStart, log });
    this.nginx = await this.startNginx();
    this.check();
    await this.interruptible(Promise.all([this.replicas.ready(60000), this.lab?.waitHealthy(60000)]));
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

  private async startNginx(): Promise<RunningChild> {
    const server = await startNginxServer({
      port: this.config.ports.nginx,
      upstreamPorts: this.config.ports.api,
      labPort: this.config.ports.lab,
      prefix: join(this.config.dir, 'nginx'),
      log: this.log,
    });
    void server.exited.then((how) => {
      if (!this.stopping) this.log(`${server.name} exited (${how})`);
    });
    return server;
  }

  /** stack.json plus what the control endpoint knows: restarts and which servers run. */
  state() {
    return stackState(this.info(), this.replicas?.replicas ?? []);
  }

  replica(id: string): SupervisedReplica | undefined {
    return this.replicas?.find(id);
  }

  info(): StackInfo {
    const { config } = this;
    return {
      nginxUrl: this.nginxUrl,
      replicas: (this.replicas?.replicas ?? []).map((r) => ({ id: r.id, url: r.url, pid: r.pid ?? 0 })),
      databaseUrl: this.data.databaseUrl,
      ...this.data.redisEndpoints(),
      redisMode: config.redisMode,
      ...(config.redisMode === 'single' ? { redisAppendFsync: config.redisAppendFsync } : {}),
      adminToken: config.adminToken,
      chaos: config.chaos,
      databasePoolSize: config.databasePoolSize,
      controlUrl: this.controlUrl,
      ...(this.lab ? { labUrl: `${this.nginxUrl}/lab/` } : {}),
      redlockUrls: this.data.redlockUrls,
      dir: config.dir,
      supervisorPid: process.pid,
      ports: config.ports,
      pids: { ...this.data.pids(), nginx: alive(this.nginx), lab: this.lab?.pid },
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

  // Fault injection: each really stops or starts the server, then stack.json tells the new pids.
  stopRedis = async (key?: string, signal?: NodeJS.Signals) => {
    const stopped = await this.data.stopRedis(key, signal);
    await this.writeInfo();
    return stopped;
  };
  startRedisAgain = (options?: RedisStartOptions) => this.data.startRedisAgain(options).then(() => this.writeInfo());
  stopPostgres = () => this.data.stopPostgres().then(() => this.writeInfo());
  startPostgresAgain = () => this.data.startPostgresAgain().then(() => this.writeInfo());
  stopRedlock = (i: number) => this.data.stopRedlock(i).then(() => this.writeInfo());
  startRedlockAgain = (i: number) => this.data.startRedlockAgain(i).then(() => this.writeInfo());

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
    await this.lab?.stop();
    await this.replicas?.stop();
    await this.data.stop();
    if (readPid(pidFile(this.config.dir)) === process.pid) await rm(pidFile(this.config.dir), { force: true });
    this.log('stack stopped');
  }
}
