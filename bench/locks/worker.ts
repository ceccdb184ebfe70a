import { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { AcquireFailed, createContender } from './contenders';
import { windowReadings } from './cpu-probes';
import { counterSection, settleCounterKey, WARM_UP_MS } from './critical-section';
import type { ContenderConfig, ParentMessage, WorkerMessage, WorkerReport } from './messages';
import { runTurns } from './turn-ring';

// One process of the micro-bench, started for one measurement: per 'run' message it builds the
// contender, warms up, says 'ready', and on 'go' lets K waiters loop acquire → GET+SET of a
// counter → release until the window ends (counting once the settle is over), then reports and
// closes the contender. A 'run' of kind 'turns' plays its part of a ring instead (turn-ring.ts).
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

async function runOnce(config: ContenderConfig): Promise<WorkerReport> {
  const contender = createContender(config.contender, config.redisUrl, `bench-${process.pid}`);
  const data = new Redis(config.redisUrl); // the critical section's own connection, same for every contender
  try {
    const grantsPerWaiter = new Array<number>(config.waiters).fill(0);
    const waitsMs: number[] = [];
    const places: number[] = [];
    let failedAcquisitions = 0;
    let settleSections = 0;
    let error: string | undefined;

    // A waiter keeps asking until the window closes; a wait under way then runs to its end, so
    // every wait is measured whole, but only sections entered inside the window count, and only
    // waits that end in a section entered from `countFrom` on (the settle before it is not measured).
    const waiter = async (index: number, resource: string, countFrom: number, endAt: number) => {
      while (Date.now() < endAt && error === undefined) {
        const wantedAt = Date.now();
        try {
          await contender.withLock(resource, async () => {
            const enteredAt = Date.now();
            const counted = enteredAt >= countFrom;
            const inWindow = counted && enteredAt < endAt;
            // The settle's sections go to a counter of their own, checked as the window's is:
            // two holders at once there (the start, when every waiter asks) would show too.
            const inSettle = !counted && countFrom !== Infinity;
            if (counted) waitsMs.push(enteredAt - wantedAt);
            const key = inWindow
              ? config.counterKey
              : inSettle
                ? settleCounterKey(config.counterKey)
                : `${resource}:late`;
            const place = await counterSection(data, key);
            if (inWindow) {
              grantsPerWaiter[index] += 1;
              places.push(place);
            }
            if (inSettle) settleSections += 1;
          });
        } catch (e) {
          if (!(e instanceof AcquireFailed)) {
            error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
            return;
          }
          if (Date.now() >= countFrom) failedAcquisitions += 1;
        }
      }
    };

    // Warm-up on a resource of this process alone (JIT, connections, scripts loaded), not counted.
    const warmUp = `${config.resource}:warm-up:${config.processIndex}`;
    const warmEnd = Date.now() + WARM_UP_MS;
    await Promise.all(grantsPerWaiter.map((_, i) => waiter(i, warmUp, Infinity, warmEnd)));
    if (error !== undefined) throw new Error(error);
    const go = nextMessage('go');
    send({ type: 'ready' });
    const { startAt, countFrom, endAt } = await go;
    await sleep(Math.max(0, startAt - Date.now()));
    const waiting = Promise.all(grantsPerWaiter.map((_, i) => waiter(i, config.resource, countFrom, endAt)));
    const readings = await windowReadings(countFrom, endAt);
    await waiting;
    return {
      processIndex: config.processIndex,
      grantsPerWaiter,
      failedAcquisitions,
      settleSections,
      waitsMs,
      places,
      ...readings.read(),
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
  const config = message.config;
  const run =
    config.kind === 'turns'
      ? runTurns(
          config,
          () => send({ type: 'ready' }),
          () => nextMessage('go'),
        )
      : runOnce(config);
  run.then(
    (report) => send({ type: 'report', report }),
    (e: unknown) => send({ type: 'failed', error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }),
  );
});
