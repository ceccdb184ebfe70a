import { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { AcquireFailed, createContender, type Contender } from './contenders';
import { phaseCounter, type RoundWindow, type WorkerConfig, type WorkerMessage, type WorkerReport } from './messages';

// One process of one measurement: builds its contender, says 'ready', and given the window lets its
// waiters loop acquire → the section → release until the window closes, then reports.
const send = (message: WorkerMessage) => process.send?.(message);

/** The critical section: read a counter and write it back plus one, as a stock deduction does. */
async function counterSection(redis: Redis, counterKey: string): Promise<void> {
  await redis.set(counterKey, Number((await redis.get(counterKey)) ?? 0) + 1);
}

async function measure(config: WorkerConfig, contender: Contender, window: RoundWindow): Promise<WorkerReport> {
  const { startAt, countFrom, endAt } = window;
  const data = new Redis(config.redisUrl); // the section's own connection, the same for every contender
  const grantsPerWaiter = new Array<number>(config.waiters).fill(0);
  const waitsMs: number[] = [];
  let [failedAcquisitions, warmUpSections] = [0, 0];
  let error: string | undefined;

  // A wait under way when the window closes is measured whole; its section counts apart, as the warm-up's do:
  // the warm-up's counter is checked too.
  const waiter = async (index: number) => {
    while (Date.now() < endAt && error === undefined) {
      const wantedAt = Date.now();
      try {
        await contender.withLock(config.resource, async () => {
          const enteredAt = Date.now();
          const phase = enteredAt < countFrom ? 'warm-up' : enteredAt < endAt ? 'window' : 'late';
          if (phase !== 'warm-up') waitsMs.push(enteredAt - wantedAt);
          await counterSection(data, phaseCounter(config.counterKey, phase));
          if (phase === 'window') grantsPerWaiter[index] += 1;
          if (phase === 'warm-up') warmUpSections += 1;
        });
      } catch (e) {
        if (!(e instanceof AcquireFailed)) error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
        else if (Date.now() >= countFrom) failedAcquisitions += 1;
      }
    }
  };

  try {
    await sleep(Math.max(0, startAt - Date.now()));
    await Promise.all(grantsPerWaiter.map((_, i) => waiter(i)));
    const counts = { grantsPerWaiter, failedAcquisitions, waitsMs, warmUpSections };
    return { processIndex: config.processIndex, ...counts, ...(error ? { error } : {}) };
  } finally {
    await data.quit();
  }
}

const config = JSON.parse(process.argv[2]) as WorkerConfig;
const contender = createContender(config.contender, config.redisUrl, `bench-${process.pid}`);
process.once('message', (window: RoundWindow) => {
  measure(config, contender, window).then(
    (report) => send({ type: 'report', report }),
    (e: unknown) => send({ type: 'failed', error: e instanceof Error ? e.message : String(e) }),
  ); // then the bench ends this process
});
send({ type: 'ready' });
