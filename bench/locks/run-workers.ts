import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { WorkerConfig, WorkerMessage } from './worker';

/** One process's counts of one measurement. */
export type WorkerReport = Awaited<ReturnType<typeof runWorkers>>[number];

/**
 * One measurement in `processes` fresh processes, so nothing a lock leaves in a process slows the
 * next. Once every one is ready, all get one window a moment ahead, so none starts alone.
 */
export async function runWorkers(
  workerPath: string,
  processes: number,
  config: WorkerConfig,
  timing: { readonly warmUpMs: number; readonly windowMs: number },
) {
  const children = Array.from({ length: processes }, () =>
    fork(workerPath, [JSON.stringify(config)], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  const exits = children.map((child) => once(child, 'exit'));
  try {
    await Promise.all(children.map((child) => next(child, 'ready')));
    const startAt = Date.now() + 50;
    const countFrom = startAt + timing.warmUpMs;
    const reports = children.map((child) => next(child, 'report'));
    for (const child of children) child.send({ startAt, countFrom, endAt: countFrom + timing.windowMs });
    return (await Promise.all(reports)).map((m, processIndex) => ({ processIndex, ...m.report }));
  } finally {
    for (const child of children) child.kill(); // done with, or failed: none outlives its measurement
    await Promise.all(exits);
  }
}

/** The next message of `type` from `child`; rejects if it reports a failure or exits first (then it is killed). */
function next<T extends WorkerMessage['type']>(child: ChildProcess, type: T) {
  return new Promise<Extract<WorkerMessage, { type: T }>>((resolve, reject) => {
    child.on('message', (message: WorkerMessage) => {
      if (message.type === 'failed') reject(new Error(`worker ${child.pid}: ${message.error}`));
      else if (message.type === type) resolve(message as Extract<WorkerMessage, { type: T }>);
    });
    child.once('exit', (code) => reject(new Error(`worker ${child.pid} exited (${code}) before '${type}'`)));
  });
}
