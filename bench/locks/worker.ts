import { Redis } from 'ioredis';
import { AcquireFailed, createContender, type WithLock } from './contenders';

// One process of one measurement: builds its contender, says 'ready', and given the window lets its
// waiters loop acquire → the section → release until the window closes, then reports.

/** Its argv[2], as JSON: the contender (of CONTENDERS, or NO_LOCK), the Redis, the keys to use, the waiters. */
export type WorkerConfig = Record<'contender' | 'redisUrl' | 'resource' | 'counter', string> & { waiters: number };
/** Epoch ms, one clock for every process: each warms up from the message on, counts from `countFrom` to `endAt`. */
export type RoundWindow = Readonly<Record<'countFrom' | 'endAt', number>>;
export type WorkerCounts = Awaited<ReturnType<typeof measure>>;

async function measure(config: WorkerConfig, withLock: WithLock, { countFrom, endAt }: RoundWindow) {
  const data = new Redis(config.redisUrl); // the section's own connection, the same for every contender
  const grantsPerWaiter = new Array<number>(config.waiters).fill(0); // sections entered inside the window
  const waitsMs: number[] = []; // from wanting the lock to entering the section
  let sections = 0; // every section run, warm-up included: the counter must end equal to it
  let failedAcquisitions = 0;
  let error = undefined as string | undefined; // a failure other than a lock not had; the waiters set it

  const waiter = async (index: number) => {
    while (Date.now() < endAt && error === undefined) {
      const wantedAt = Date.now();
      try {
        await withLock(config.resource, async () => {
          const enteredAt = Date.now();
          // The section: read a counter and write it back plus one, as a stock deduction does.
          await data.set(config.counter, Number((await data.get(config.counter)) ?? 0) + 1);
          sections += 1;
          // A wait under way when the window closes is measured whole; its grant falls outside the window.
          if (enteredAt >= countFrom) waitsMs.push(enteredAt - wantedAt);
          if (enteredAt >= countFrom && enteredAt < endAt) grantsPerWaiter[index] += 1;
        });
      } catch (e) {
        if (!(e instanceof AcquireFailed)) error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
        else if (Date.now() >= countFrom) failedAcquisitions += 1;
      }
    }
  };

  await Promise.all(grantsPerWaiter.map((_, i) => waiter(i)));
  return { grantsPerWaiter, failedAcquisitions, waitsMs, sections, ...(error ? { error } : {}) };
}

const config = JSON.parse(process.argv[2]) as WorkerConfig;
const withLock = createContender(config.contender, config.redisUrl, `bench-${process.pid}`);
// Given the window, measures and reports; then the bench ends this process, connections and all.
process.once('message', (window: RoundWindow) => {
  void measure(config, withLock, window).then((counts) => process.send?.(counts));
});
process.send?.('ready');
