import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { aggregate } from './aggregate';
import { CONTENDERS, NO_LOCK, type ContenderName } from './contenders';
import type { LockSettings } from './render';
import type { RoundWindow, WorkerConfig, WorkerCounts } from './worker';

/**
 * One measurement in fresh processes, so nothing a lock leaves in a process slows the next; the section
 * alone runs in one process with one waiter. Every process, once ready, gets the one window.
 */
export async function measure(o: LockSettings & { readonly port: number }, name: ContenderName | typeof NO_LOCK) {
  const [processes, waiters] = name === NO_LOCK ? [1, 1] : [o.processes, o.waiters];
  const redisUrl = `redis://127.0.0.1:${o.port}`;
  const resource = `bench:locks:${name}:${Date.now()}`;
  const counter = `${resource}:counter`;
  const config = JSON.stringify({ contender: name, redisUrl, waiters, resource, counter } satisfies WorkerConfig);
  const children = Array.from({ length: processes }, () =>
    fork(join(__dirname, 'worker.ts'), [config], { execArgv: ['--import', 'tsx'] }),
  );
  const exits = children.map((child) => once(child, 'exit'));
  let counts: WorkerCounts[];
  try {
    await Promise.all(children.map((child) => next(child, 'ready')));
    const countFrom = Date.now() + o.warmUpSeconds * 1000;
    const reports = children.map((child) => next<WorkerCounts>(child, 'report'));
    const window: RoundWindow = { countFrom, endAt: countFrom + o.seconds * 1000 };
    for (const child of children) child.send(window);
    counts = await Promise.all(reports);
  } finally {
    for (const child of children) child.kill(); // done with, or failed: none outlives its measurement
    await Promise.all(exits);
  }
  const redis = new Redis(redisUrl);
  const counted = Number(await redis.get(counter).finally(() => redis.quit()));
  const ours = name !== NO_LOCK && CONTENDERS[name].ours;
  return aggregate(name, ours, counts, counted, o.seconds * 1000);
}

/** The next message from `child`; rejects if it exits first. */
function next<T>(child: ChildProcess, awaited: string) {
  return new Promise<T>((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`worker ${child.pid} exited (${code}) before '${awaited}'`)));
  });
}
