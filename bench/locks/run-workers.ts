import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { WorkerConfig, WorkerMessage, WorkerReport } from './messages';

/**
 * One measurement in fresh processes, one per config, so nothing a lock leaves in a process slows
 * the next. Once every one is ready, all get one window a moment ahead, so none starts alone.
 */
export async function runWorkers(
  workerPath: string,
  configs: readonly WorkerConfig[],
  timing: { readonly warmUpMs: number; readonly windowMs: number },
): Promise<WorkerReport[]> {
  const children = configs.map((config) =>
    fork(workerPath, [JSON.stringify(config)], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  const exits = children.map((child) => once(child, 'exit'));
  try {
    await Promise.all(children.map((child) => next(child, 'ready')));
    const startAt = Date.now() + 50;
    const countFrom = startAt + timing.warmUpMs;
    const window = { startAt, countFrom, endAt: countFrom + timing.windowMs };
    const reports = children.map((child) => next(child, 'report'));
    for (const child of children) child.send(window);
    return (await Promise.all(reports)).map((m) => m.report);
  } finally {
    for (const child of children) child.kill(); // done with, or failed: none outlives its measurement
    await Promise.all(exits);
  }
}

/** The next message of `type` from `child`; rejects if it reports a failure or exits first. */
function next<T extends WorkerMessage['type']>(child: ChildProcess, type: T) {
  return new Promise<Extract<WorkerMessage, { type: T }>>((resolve, reject) => {
    const onMessage = (message: WorkerMessage) => {
      if (message.type === 'failed') reject(new Error(`worker ${child.pid}: ${message.error}`));
      else if (message.type === type) resolve(message as Extract<WorkerMessage, { type: T }>);
      else return;
      child.off('message', onMessage).off('exit', onExit);
    };
    const onExit = (code: number | null) => {
      child.off('message', onMessage);
      reject(new Error(`worker ${child.pid} exited (${code}) before '${type}'`));
    };
    child.on('message', onMessage).once('exit', onExit);
  });
}
