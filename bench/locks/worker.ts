import { Redis } from 'ioredis';
import { AcquireFailed, createContender } from './contenders';
import type { ParentMessage, WorkerConfig, WorkerMessage, WorkerReport } from './messages';

// One process of the micro-bench, kept for the whole run: per 'run' message it builds the
// contender, warms up, says 'ready', and on 'go' lets K waiters loop acquire → GET+SET of a
// counter → release until its quota of grants is claimed, then reports and closes the contender.
const send = (message: WorkerMessage) => process.send?.(message);

function nextMessage<T extends ParentMessage['type']>(type: T): Promise<Extract<ParentMessage, { type: T }>> {
  return new Promise((resolve) => {
    const listener = (message: ParentMessage) => {
      if (message.type !== type) return;
      process.removeListener('message', listener);
      resolve(message as Extract<ParentMessage, { type: T }>);
    };
    process.on('message', listener);
  });
}

async function runOnce(config: WorkerConfig): Promise<WorkerReport> {
  const contender = createContender(config.contender, config.redisUrl, `bench-${process.pid}`);
  const data = new Redis(config.redisUrl); // the critical section's own connection, same for every contender
  try {
    const grantsPerWaiter = new Array<number>(config.waiters).fill(0);
    const waitsMs: number[] = [];
    let failedAcquisitions = 0;
    let claimed = 0;
    let error: string | undefined;

    // The short critical section: read, then write back, as the coupon deduction does.
    const critical = async (counterKey: string) => {
      const value = Number((await data.get(counterKey)) ?? 0);
      await data.set(counterKey, value + 1);
    };

    const waiter = async (index: number, quota: number, resource: string, counted: boolean) => {
      while (claimed < quota && error === undefined) {
        claimed += 1;
        const claimedAt = Date.now();
        for (;;) {
          try {
            await contender.withLock(resource, async () => {
              if (counted) waitsMs.push(Date.now() - claimedAt);
              await critical(counted ? config.counterKey : `${resource}:counter`);
            });
            if (counted) grantsPerWaiter[index] += 1;
            break;
          } catch (e) {
            if (!(e instanceof AcquireFailed)) {
              error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
              return;
            }
            if (counted) failedAcquisitions += 1;
          }
        }
      }
    };

    // Warm-up on a resource of this process alone (JIT, connections, scripts loaded), not counted.
    const warmUp = `${config.resource}:warm-up:${config.processIndex}`;
    await Promise.all(grantsPerWaiter.map((_, i) => waiter(i, Math.ceil(config.quota / 10), warmUp, false)));
    if (error !== undefined) throw new Error(error);
    claimed = 0;
    const go = nextMessage('go');
    send({ type: 'ready' });
    await go;
    const startedAt = Date.now();
    await Promise.all(grantsPerWaiter.map((_, i) => waiter(i, config.quota, config.resource, true)));
    const finishedAt = Date.now();
    return {
      processIndex: config.processIndex,
      grantsPerWaiter,
      failedAcquisitions,
      waitsMs,
      startedAt,
      finishedAt,
      ...(error ? { error } : {}),
    };
  } finally {
    await contender.close();
    await data.quit();
  }
}

process.on('message', (message: ParentMessage) => {
  if (message.type === 'exit') process.disconnect?.();
  if (message.type !== 'run') return;
  runOnce(message.config).then(
    (report) => send({ type: 'report', report }),
    (e: unknown) => send({ type: 'failed', error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }),
  );
});
