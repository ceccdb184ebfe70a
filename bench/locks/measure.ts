import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { aggregate } from './aggregate';
import { CONTENDERS, NO_LOCK, type ContenderName } from './contenders';
import type { LockSettings } from './render';
import type { RoundWindow, WorkerConfig, WorkerCounts } from './worker';

export type Measured = ContenderName | typeof NO_LOCK;

/**
 * One measurement in fresh processes, so nothing a lock leaves in a process slows the next; the
 * section alone runs in one process with one waiter. Once every process is ready, all get one window
 * a moment ahead, so none starts alone.
 */
export async function measure(workerPath: string, o: LockSettings & { readonly port: number }, name: Measured) {
  const [processes, waiters] = name === NO_LOCK ? [1, 1] : [o.processes, o.waiters];
  const redisUrl = `redis://127.0.0.1:${o.port}`;
  const resource = `bench:locks:${name}:${Date.now()}`;
  const windowMs = o.seconds * 1000;
  const config = JSON.stringify({ contender: name, redisUrl, waiters, resource } satisfies WorkerConfig);
  const children = Array.from({ length: processes }, () =>
    fork(workerPath, [config], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  const exits = children.map((child) => once(child, 'exit'));
  let counts: WorkerCounts[];
  try {
    await Promise.all(children.map((child) => next(child, 'ready')));
    const startAt = Date.now() + 50;
    const countFrom = startAt + o.warmUpSeconds * 1000;
    const reports = children.map((child) => next<WorkerCounts>(child, 'report'));
    for (const child of children) child.send({ startAt, countFrom, endAt: countFrom + windowMs } satisfies RoundWindow);
    counts = await Promise.all(reports);
  } finally {
    for (const child of children) child.kill(); // done with, or failed: none outlives its measurement
    await Promise.all(exits);
  }
  const redis = new Redis(redisUrl);
  const keys = ['window', 'warm-up'].map((phase) => `${resource}:counter:${phase}`);
  const [counter, warmUpCounter] = (await redis.mget(keys).finally(() => redis.quit())).map(Number);
  const { ours, atDefaults } = name === NO_LOCK ? { ours: false, atDefaults: true } : CONTENDERS[name];
  const reports = counts.map((c, processIndex) => ({ processIndex, ...c }));
  return aggregate(name, { ours, atDefaults }, reports, { counter, warmUpCounter }, windowMs);
}

/** The next message from `child`; rejects if it exits first. */
function next<T>(child: ChildProcess, awaited: string) {
  return new Promise<T>((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`worker ${child.pid} exited (${code}) before '${awaited}'`)));
  });
}
