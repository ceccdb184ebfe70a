import { Redis, type Result } from 'ioredis';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { windowReadings } from './cpu-probes';
import { counterSection, settleCounterKey, WARM_UP_MS } from './critical-section';
import type { TurnConfig, WorkerReport } from './messages';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** scripts/handoff-pass.lua */
    benchHandoffPass(lockKey: string, nextChannel: string, claimMs: number): Result<number, Context>;
  }
}

/**
 * One worker's part of a ring (turn-ceiling.ts): warm up as the contenders do, then wait for the
 * turn, run its sections, pass the turn on, until the window ends.
 */
export async function runTurns(
  config: TurnConfig,
  ready: () => void,
  go: () => Promise<{ startAt: number; countFrom: number; endAt: number }>,
): Promise<WorkerReport> {
  const [data, publisher, subscriber] = [1, 2, 3].map(() => new Redis(config.redisUrl));
  const next = `${config.channelPrefix}${(config.processIndex + 1) % config.processes}`;
  let sections = 0;
  let countFrom = Number.POSITIVE_INFINITY;
  let endAt = Number.POSITIVE_INFINITY;
  const settleKey = settleCounterKey(config.counterKey); // the settle's sections, so the counter matches the count
  let error: string | undefined;
  const handOff = config.handOff;
  if (handOff) {
    const lua = readFileSync(join(__dirname, 'scripts', 'handoff-pass.lua'), 'utf8'); // beside the bundle too
    publisher.defineCommand('benchHandoffPass', { numberOfKeys: 1, lua });
  }
  const turn = async () => {
    // The hand-off ring's claim goes out as ours does: on the lock connection, once the section has
    // sent its first command; its answer is read while the section runs, and it lands before the pass.
    const claim =
      handOff && Date.now() < endAt ? onceBegun(() => publisher.pexpire(handOff.lockKey, handOff.leaseMs)) : undefined;
    try {
      for (let i = 0; i < config.sectionsPerTurn; i += 1) {
        const enteredAt = Date.now();
        if (enteredAt >= endAt) return; // the window closed: the turn stops here
        const counted = enteredAt >= countFrom;
        await counterSection(data, counted ? config.counterKey : settleKey);
        if (counted) sections += 1;
      }
      // With the hand-off, the next process's lock and its wake-up in one script, as ours hands on.
      if (handOff) await publisher.benchHandoffPass(handOff.lockKey, next, handOff.claimMs);
      else await publisher.spublish(next, 'turn');
    } finally {
      if (claim) await claim;
    }
  };
  let current: Promise<unknown> = Promise.resolve();
  const take = () => {
    current = turn().catch((e: unknown) => (error = String(e)));
  };
  try {
    await warmUp(data, publisher, `${config.counterKey}:warm-up:${config.processIndex}`, handOff);
    subscriber.on('smessage', take);
    await subscriber.ssubscribe(`${config.channelPrefix}${config.processIndex}`);
    ready();
    const window = await go();
    ({ countFrom, endAt } = window);
    await sleep(Math.max(0, window.startAt - Date.now()));
    if (config.processIndex === 0) take();
    const readings = await windowReadings(countFrom, endAt);
    // A turn passed just before the window closed arrives after it and runs no section; the turn
    // under way here finishes its section, however slow, so the counter agrees with the count.
    await sleep(Math.max(0, endAt - Date.now()) + 200);
    await current;
    const report = {
      processIndex: config.processIndex,
      grantsPerWaiter: [sections],
      failedAcquisitions: 0,
      waitsMs: [],
    };
    return { ...report, ...readings.read(), error };
  } finally {
    await Promise.all([data, publisher, subscriber].map((r) => r.quit()));
  }
}

/**
 * The section back to back on a key of this process alone, not counted (JIT, connections); in the
 * hand-off ring, with its claim and its pass around each, to a channel nobody listens to.
 */
async function warmUp(data: Redis, publisher: Redis, key: string, handOff: TurnConfig['handOff']): Promise<void> {
  const warmEnd = Date.now() + WARM_UP_MS;
  const lockKey = `${key}:lock`;
  while (Date.now() < warmEnd) {
    const claim = handOff ? onceBegun(() => publisher.pexpire(lockKey, handOff.leaseMs)) : undefined;
    await counterSection(data, key);
    if (handOff) await Promise.all([claim, publisher.benchHandoffPass(lockKey, `${key}:turn`, handOff.claimMs)]);
  }
  await data.del(key, lockKey);
}

/**
 * Sends once the section's first command is out: setImmediate runs after this turn's I/O callbacks,
 * as ours claims (libs/lock/src/waiting/claim-once-begun.ts).
 */
function onceBegun<T>(send: () => Promise<T>): Promise<T> {
  return new Promise<void>((resolve) => setImmediate(resolve)).then(send);
}
