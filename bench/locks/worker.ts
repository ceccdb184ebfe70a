import { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { AcquireFailed, createContender, type WithLock } from './contenders';

// One process of one measurement: builds its contender, says 'ready', and given the window lets its
// waiters loop acquire → the section → release until the window closes, then reports.

/** Its argv[2], as JSON: the contender's name (of CONTENDERS, or NO_LOCK), the Redis, waiters and resource. */
export type WorkerConfig = Readonly<Record<'contender' | 'redisUrl' | 'resource', string> & { waiters: number }>;
/** Epoch ms: every process starts at `startAt`, warms up until `countFrom`, and counts until `endAt`. */
export type RoundWindow = Readonly<Record<'startAt' | 'countFrom' | 'endAt', number>>;
/** What one process counted; a failure of its own ends the process, which the bench sees. */
export type WorkerCounts = Awaited<ReturnType<typeof measure>>;

/** The critical section: read a counter and write it back plus one, as a stock deduction does. */
async function counterSection(redis: Redis, counterKey: string): Promise<void> {
  await redis.set(counterKey, Number((await redis.get(counterKey)) ?? 0) + 1);
}

async function measure(config: WorkerConfig, withLock: WithLock, { startAt, countFrom, endAt }: RoundWindow) {
  const data = new Redis(config.redisUrl); // the section's own connection, the same for every contender
  const grantsPerWaiter = new Array<number>(config.waiters).fill(0); // sections entered inside the window
  const waitsMs: number[] = []; // from wanting the lock to entering the section
  let [failedAcquisitions, warmUpSections] = [0, 0];
  let error = undefined as string | undefined; // a failure other than a lock not had; the waiters set it

  // A wait under way when the window closes is measured whole; its section counts apart, as the warm-up's do:
  // the warm-up's counter is checked too. The bench reads the counters at `${resource}:counter:<phase>`.
  const waiter = async (index: number) => {
    while (Date.now() < endAt && error === undefined) {
      const wantedAt = Date.now();
      try {
        await withLock(config.resource, async () => {
          const enteredAt = Date.now();
          const phase = enteredAt < countFrom ? 'warm-up' : enteredAt < endAt ? 'window' : 'late';
          if (phase !== 'warm-up') waitsMs.push(enteredAt - wantedAt);
          await counterSection(data, `${config.resource}:counter:${phase}`);
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
    return { grantsPerWaiter, failedAcquisitions, waitsMs, warmUpSections, ...(error ? { error } : {}) };
  } finally {
    await data.quit();
  }
}

const config = JSON.parse(process.argv[2]) as WorkerConfig;
const withLock = createContender(config.contender, config.redisUrl, `bench-${process.pid}`);
// Given the window, measures and reports; then the bench ends this process.
process.once('message', (window: RoundWindow) => {
  void measure(config, withLock, window).then((counts) => process.send?.(counts));
});
process.send?.('ready');
