import { startChild, waitFor, type RunningChild } from './child';
import { httpStatus } from './http-probe';
import { forwardOutput } from './log-lines';

export interface ReplicaOptions {
  readonly id: string;
  readonly port: number;
  /** The replica's entry script, run with this Node. */
  readonly entry: string;
  /** PORT and REPLICA_ID are added. */
  readonly env: NodeJS.ProcessEnv;
  /** Called with every fresh process (first start and each restart). */
  readonly onStart?: (replica: SupervisedReplica) => void;
  /** Called when a process dies unexpectedly (before it is restarted). */
  readonly onExit?: (how: number | NodeJS.Signals) => void;
  readonly log?: (line: string) => void;
}

/** A replica kept alive like compose's `restart: unless-stopped`: it is restarted whenever it dies, until stopped. */
export interface SupervisedReplica {
  readonly id: string;
  readonly url: string;
  readonly pid: number | undefined;
  readonly restarts: number;
  /** The last lines the replica wrote (its stack trace when it died at start). */
  readonly lastLines: string[];
  /** Resolves once GET /health answers 200. */
  waitHealthy(timeoutMs?: number): Promise<void>;
  /** SIGKILL; the supervisor restarts it. Resolves with the pid that was killed. */
  kill(): Promise<number | undefined>;
  /** Stops it for good. */
  stop(): Promise<void>;
}

const RESTART_DELAY_MS = 250;
const MAX_RESTART_DELAY_MS = 5000;

export function superviseReplica(options: ReplicaOptions): SupervisedReplica {
  const url = `http://127.0.0.1:${options.port}`;
  let current: RunningChild;
  let stopping = false;
  let restarts = 0;
  let startedAt = 0;
  let quickDeaths = 0;
  const lastLines: string[] = [];

  const spawnOnce = () => {
    startedAt = Date.now();
    current = startChild(options.id, process.execPath, [options.entry], {
      env: { ...options.env, PORT: String(options.port), REPLICA_ID: options.id },
      detached: true,
    });
    forwardOutput(options.id, current.child, (line) => {
      lastLines.push(line);
      if (lastLines.length > 30) lastLines.shift();
      options.log?.(line);
    });
    options.onStart?.(replica);
    const child = current;
    // 'close' follows 'exit' once the output is drained: onExit then sees the last words.
    const drained = new Promise<void>((resolve) => {
      child.child.once('close', () => resolve());
      void child.exited.then(() => setTimeout(resolve, 500));
    });
    void child.exited.then(async (how) => {
      if (stopping) return;
      await drained;
      if (stopping) return;
      options.onExit?.(how);
      // A replica that dies at once again and again (bad build, port taken) is retried ever more slowly.
      quickDeaths = Date.now() - startedAt < 2000 ? quickDeaths + 1 : 0;
      const delay = Math.min(RESTART_DELAY_MS * 2 ** quickDeaths, MAX_RESTART_DELAY_MS);
      options.log?.(`${options.id} (pid ${child.child.pid}) exited (${how}); restarting in ${delay} ms`);
      setTimeout(() => {
        if (stopping) return;
        restarts += 1;
        spawnOnce();
      }, delay);
    });
  };

  const replica: SupervisedReplica = {
    id: options.id,
    url,
    get pid() {
      return current.child.pid;
    },
    get restarts() {
      return restarts;
    },
    get lastLines() {
      return [...lastLines];
    },
    waitHealthy: (timeoutMs = 30000) =>
      waitFor(`${options.id} health`, async () => (await httpStatus(`${url}/health`)) === 200, timeoutMs, 100),
    async kill() {
      const pid = current.child.pid;
      current.child.kill('SIGKILL');
      await current.exited;
      return pid;
    },
    async stop() {
      stopping = true;
      await current.stop('SIGTERM', 5000);
    },
  };
  spawnOnce();
  return replica;
}
