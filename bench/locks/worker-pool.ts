import { fork, type ChildProcess } from 'node:child_process';
import type { ParentMessage, WorkerConfig, WorkerMessage, WorkerReport } from './messages';

/** P worker processes for one measurement; `run` may be called again on the same processes. */
export class WorkerPool {
  private readonly children: ChildProcess[];

  /**
   * `workerPath`: the worker compiled to plain JavaScript (compileWorker), run by plain Node;
   * `settleMs`: how long the workers run together before what they do counts (SETTLE_MS).
   */
  constructor(
    readonly size: number,
    workerPath: string,
    private readonly settleMs = 0,
  ) {
    this.children = Array.from({ length: size }, () =>
      fork(workerPath, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
    );
  }

  /**
   * Gives each worker its config; once every one has warmed up and is ready, starts them all at
   * once, so none runs uncontended, and counts the same window of `seconds` in each once they have
   * run together for the settle; resolves with their reports.
   */
  async run(
    configs: readonly WorkerConfig[],
    seconds: number,
    /** Told the counted window (epoch ms) just before the workers are: to measure something over it too. */
    onWindow?: (countFrom: number, endAt: number) => void,
  ): Promise<WorkerReport[]> {
    const ready = this.children.map((child) => this.next(child, 'ready'));
    const reports = this.children.map((child) => this.next(child, 'report'));
    for (const r of reports) r.catch(() => undefined); // awaited below, after 'ready'
    this.children.forEach((child, i) => this.send(child, { type: 'run', config: configs[i] }));
    await Promise.all(ready);
    // One window for all, a moment ahead, so every process starts on the same clock reading.
    const startAt = Date.now() + 50;
    const countFrom = startAt + this.settleMs;
    const endAt = countFrom + seconds * 1000;
    onWindow?.(countFrom, endAt);
    for (const child of this.children) this.send(child, { type: 'go', startAt, countFrom, endAt });
    return (await Promise.all(reports)).map((m) => m.report);
  }

  async close(): Promise<void> {
    await Promise.all(
      this.children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            if (child.connected) this.send(child, { type: 'exit' });
            else child.kill();
          }),
      ),
    );
  }

  private send(child: ChildProcess, message: ParentMessage): void {
    child.send(message);
  }

  /** The next message of `type` from `child`; rejects if it reports a failure or exits first. */
  private next<T extends WorkerMessage['type']>(
    child: ChildProcess,
    type: T,
  ): Promise<Extract<WorkerMessage, { type: T }>> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: WorkerMessage) => {
        if (message.type === type) {
          cleanup();
          resolve(message as Extract<WorkerMessage, { type: T }>);
        }
        if (message.type === 'failed') {
          cleanup();
          reject(new Error(`worker ${child.pid}: ${message.error}`));
        }
      };
      const onExit = (code: number | null) => {
        cleanup();
        reject(new Error(`worker ${child.pid} exited (${code}) before '${type}'`));
      };
      const cleanup = () => {
        child.removeListener('message', onMessage);
        child.removeListener('exit', onExit);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  }
}
