import type { StackConfig } from './config';
import { superviseReplica, type SupervisedReplica } from './servers/replica';

export interface ReplicaSetOptions {
  readonly config: StackConfig;
  /** What every replica is told besides its port and id (database, Redis, token, chaos). */
  readonly env: NodeJS.ProcessEnv;
  /** Called with every fresh process: stack.json then gets its pid. */
  readonly onStart: () => void;
  readonly log: (line: string) => void;
}

/**
 * The API replicas, each restarted whenever it dies (as compose's `restart: unless-stopped`).
 * `ready` rejects if one dies before all are healthy, with the lines that say why.
 */
export class ReplicaSet {
  readonly replicas: SupervisedReplica[];
  private startingUp = true;
  private failed!: (error: Error) => void;
  private readonly died = new Promise<never>((_, reject) => (this.failed = reject));

  constructor(options: ReplicaSetOptions) {
    this.died.catch(() => undefined);
    this.replicas = options.config.ports.api.map((port, i) =>
      superviseReplica({
        id: `api-${i + 1}`,
        port,
        entry: options.config.replicaEntry,
        env: { ...options.env, NO_COLOR: '1' }, // their output goes to a log file, not a terminal
        onStart: (replica) => {
          options.log(`${replica.id} started (pid ${replica.pid})`);
          options.onStart();
        },
        onExit: (how) => this.exitedEarly(i, how),
        log: options.log,
      }),
    );
  }

  /** Resolves once every replica answers its health check. */
  async ready(timeoutMs: number): Promise<void> {
    await Promise.race([this.died, Promise.all(this.replicas.map((r) => r.waitHealthy(timeoutMs)))]);
    this.startingUp = false;
  }

  find(id: string): SupervisedReplica | undefined {
    return this.replicas.find((r) => r.id === id);
  }

  async stop(): Promise<void> {
    await Promise.all(this.replicas.map((r) => r.stop()));
  }

  private exitedEarly(index: number, how: number | NodeJS.Signals): void {
    if (!this.startingUp) return;
    // Its stack trace without the frames: the message is what tells why.
    const last = this.replicas[index]?.lastLines.filter((l) => !/^\[[\w-]+\]\s*(at .*)?$/.test(l)) ?? [];
    this.failed(
      new Error(`api-${index + 1} exited during startup (${how}); its last lines:\n${last.slice(-8).join('\n')}`),
    );
  }
}
