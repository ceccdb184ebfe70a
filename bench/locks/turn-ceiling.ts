import { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { ceilingCosts, cpuPer, type CeilingReading, type CpuCost } from './cpu-cost';
import { processCpuUntil, runMeasuringCpu } from './cpu-probes';
import { counterSection } from './critical-section';
import type { TurnConfig, WorkerReport } from './messages';
import type { WorkerPool } from './worker-pool';

/**
 * The bound of a lock that is fair across processes without local hand-off: every grant moves to
 * another process. Measured with no lock at all: the section, then the turn passed to the next
 * process by a shard-channel message (as our queue release wakes its waiter), round and round.
 */
export interface TurnCeiling {
  /** Turns per second: the highest of the readings (a disturbed reading would flatter the locks). */
  readonly turnsPerSec: number;
  readonly readings: number[];
  /** CPU time per turn in the fastest reading (absent from runs made before it was measured). */
  readonly cpuMicrosPerTurn?: CpuCost;
  /** CPU time per turn of every reading, in order (null where not measured). */
  readonly cpuReadings?: (CpuCost | null)[];
  readonly method: string;
}

export const TURN_CEILING_METHOD =
  'the critical section run by each process in turn with no lock: a process runs it once, then passes the turn to the next process with SPUBLISH to a channel only that process listens on, for the same window, once per round; the highest reading counts. A lock that serves the processes in turn, one grant each, cannot pass it.';

/** Pure: the turn ceiling from each round's reading (and its CPU cost per turn, when measured). */
export function turnCeiling(readings: readonly number[], costs: readonly (CpuCost | undefined)[] = []): TurnCeiling {
  const { fastest, all } = ceilingCosts(readings, costs);
  return {
    turnsPerSec: Math.max(0, ...readings),
    readings: [...readings],
    ...(fastest ? { cpuMicrosPerTurn: fastest } : {}),
    ...(all ? { cpuReadings: all } : {}),
    method: TURN_CEILING_METHOD,
  };
}

/** One reading: turns per second over the pool's processes and their CPU cost; throws if the counter disagrees with the turns. */
export async function measureTurns(pool: WorkerPool, redisUrl: string, seconds: number): Promise<CeilingReading> {
  const prefix = `bench:locks:turns:${Date.now()}`;
  const counterKey = `${prefix}:counter`;
  const configs = Array.from({ length: pool.size }, (_, processIndex) => ({
    kind: 'turns' as const,
    redisUrl,
    processIndex,
    processes: pool.size,
    channelPrefix: `${prefix}:turn:`,
    counterKey,
  }));
  const redis = new Redis(redisUrl);
  try {
    const { reports, redisMicros } = await runMeasuringCpu(pool, redis, configs, seconds);
    const failed = reports.find((r) => r.error !== undefined);
    if (failed) throw new Error(`turn ceiling: process ${failed.processIndex}: ${failed.error}`);
    const turns = reports.reduce((sum, r) => sum + r.grantsPerWaiter[0], 0);
    const counter = Number((await redis.get(counterKey)) ?? 0);
    if (counter !== turns) throw new Error(`turn ceiling: counter ${counter} ≠ ${turns} turns`);
    return { perSec: turns / seconds, cpu: cpuPer(turns, reports, redisMicros) };
  } finally {
    await redis.del(counterKey);
    await redis.quit();
  }
}

/** One worker's part of the ring: wait for the turn, run the section, pass the turn on, until the window ends. */
export async function runTurns(
  config: TurnConfig,
  ready: () => void,
  go: () => Promise<{ startAt: number; endAt: number }>,
): Promise<WorkerReport> {
  const [data, publisher, subscriber] = [1, 2, 3].map(() => new Redis(config.redisUrl));
  const next = `${config.channelPrefix}${(config.processIndex + 1) % config.processes}`;
  let turns = 0;
  let endAt = Number.POSITIVE_INFINITY;
  let error: string | undefined;
  const turn = async () => {
    if (Date.now() >= endAt) return; // the window closed: the turn stops here
    await counterSection(data, config.counterKey);
    turns += 1;
    await publisher.spublish(next, 'turn');
  };
  const take = () => void turn().catch((e: unknown) => (error = String(e)));
  try {
    subscriber.on('smessage', take);
    await subscriber.ssubscribe(`${config.channelPrefix}${config.processIndex}`);
    ready();
    const window = await go();
    endAt = window.endAt;
    await sleep(Math.max(0, window.startAt - Date.now()));
    const cpu = processCpuUntil(endAt);
    if (config.processIndex === 0) take();
    await sleep(Math.max(0, endAt - Date.now()) + 200); // the last turn under way finishes
    const report = { processIndex: config.processIndex, grantsPerWaiter: [turns], failedAcquisitions: 0, waitsMs: [] };
    return { ...report, cpuMicros: cpu.read(), error };
  } finally {
    await Promise.all([data, publisher, subscriber].map((r) => r.quit()));
  }
}
