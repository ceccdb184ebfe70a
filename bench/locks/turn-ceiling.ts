import { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { ceilingCosts, cpuPer, fastestIndex, type CeilingReading, type CpuCost } from './cpu-cost';
import { mainThreadSchedUntil, processCpuUntil, runMeasuringCpu } from './cpu-probes';
import { counterSection } from './critical-section';
import type { TurnConfig, WorkerReport } from './messages';
import { sectionCeiling } from './section-ceiling';
import { cpuWaitOf, type CpuWait } from './sched-probe';
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
  /** How long the ring's event loops waited for a CPU in the fastest reading (Linux; absent from earlier runs). */
  readonly cpuWait?: CpuWait;
  readonly method: string;
}

export const TURN_CEILING_METHOD =
  'the critical section run by each process in turn with no lock: a process runs it once, then passes the turn to the next process with SPUBLISH to a channel only that process listens on, for the same window, once per round; the highest reading counts. A lock that serves the processes in turn, one grant each, and wakes the next by a Redis message (as ours does) cannot pass it.';

/** Pure: the turn ceiling from each round's reading (and its CPU cost per turn, when measured). */
export function turnCeiling(
  readings: readonly number[],
  costs: readonly (CpuCost | undefined)[] = [],
  waits: readonly (CpuWait | undefined)[] = [],
): TurnCeiling {
  const { fastest, all } = ceilingCosts(readings, costs);
  return {
    turnsPerSec: Math.max(0, ...readings),
    readings: [...readings],
    ...(fastest ? { cpuMicrosPerTurn: fastest } : {}),
    ...(all ? { cpuReadings: all } : {}),
    ...fastestWait(readings, waits),
    method: TURN_CEILING_METHOD,
  };
}

/** Pure: the CPU wait of the reading whose rate a ceiling takes, when it was measured. */
function fastestWait(readings: readonly number[], waits: readonly (CpuWait | undefined)[]): { cpuWait?: CpuWait } {
  const wait = readings.length > 0 ? waits[fastestIndex(readings)] : undefined;
  return wait ? { cpuWait: wait } : {};
}

/**
 * The bound of a lock that serves each process a run of grants in a row, then the next process in
 * turn (ours as shipped: one grant taken in Redis, then up to the hand-off limit handed on within
 * the process, none later than `HANDOFF_WINDOW_MS` after the first): the same ring with that many sections per turn.
 */
export interface RunCeiling {
  /** Sections each process runs per turn. */
  readonly sectionsPerTurn: number;
  /** Sections per second over the ring: the highest of the readings. */
  readonly sectionPerSec: number;
  readonly readings: number[];
  /** CPU time per section (not per turn) in the fastest reading. */
  readonly cpuMicrosPerSection?: CpuCost;
  /** CPU time per section of every reading, in order (null where not measured). */
  readonly cpuReadings?: (CpuCost | null)[];
  /** How long the ring's event loops waited for a CPU in the fastest reading (Linux; absent from earlier runs). */
  readonly cpuWait?: CpuWait;
  readonly method: string;
}

export const runCeilingMethod = (sectionsPerTurn: number) =>
  `the turn ceiling's ring with ${sectionsPerTurn} sections back to back per turn, no lock, for the same window, once per round; the highest reading counts. A lock that serves the processes in turn, ${sectionsPerTurn} grants each, and wakes the next by a Redis message (as ours does) cannot pass it.`;

/** Pure: the run ceiling from each round's reading (and its CPU cost per section, when measured). */
export function runCeiling(
  sectionsPerTurn: number,
  readings: readonly number[],
  costs: readonly (CpuCost | undefined)[] = [],
  waits: readonly (CpuWait | undefined)[] = [],
): RunCeiling {
  return {
    ...sectionCeiling(readings, costs),
    ...fastestWait(readings, waits),
    sectionsPerTurn,
    method: runCeilingMethod(sectionsPerTurn),
  };
}

/** Sections per turn no window runs out of: a ring of one process that keeps the turn throughout. */
export const WHOLE_WINDOW = Number.MAX_SAFE_INTEGER;

/**
 * One reading of the section alone: a ring of one process that never passes the turn, so the
 * section runs back to back from one client in a fresh process of the compiled worker, as the
 * contenders and the rings do (not in the bench's own process, under tsx).
 */
export function measureSectionAlone(pool: WorkerPool, redisUrl: string, seconds: number): Promise<CeilingReading> {
  if (pool.size !== 1) throw new Error(`the section alone runs in one process, not ${pool.size}`);
  return measureTurns(pool, redisUrl, seconds, WHOLE_WINDOW);
}

/**
 * One reading: sections per second over the pool's processes, run `sectionsPerTurn` at a time
 * (1: the turn ceiling; more: the run ceiling), and their CPU cost per section; throws if the
 * counter disagrees with the sections.
 */
export async function measureTurns(
  pool: WorkerPool,
  redisUrl: string,
  seconds: number,
  sectionsPerTurn = 1,
): Promise<CeilingReading> {
  const prefix = `bench:locks:turns:${Date.now()}`;
  const counterKey = `${prefix}:counter`;
  const configs = Array.from({ length: pool.size }, (_, processIndex) => ({
    kind: 'turns' as const,
    redisUrl,
    processIndex,
    processes: pool.size,
    sectionsPerTurn,
    channelPrefix: `${prefix}:turn:`,
    counterKey,
  }));
  const redis = new Redis(redisUrl);
  try {
    const { reports, redisMicros } = await runMeasuringCpu(pool, redis, configs, seconds);
    const failed = reports.find((r) => r.error !== undefined);
    const ring = { 1: 'turn ceiling', [WHOLE_WINDOW]: 'section alone' }[sectionsPerTurn] ?? 'run ceiling';
    if (failed) throw new Error(`${ring}: process ${failed.processIndex}: ${failed.error}`);
    const sections = reports.reduce((sum, r) => sum + r.grantsPerWaiter[0], 0);
    const counter = Number((await redis.get(counterKey)) ?? 0);
    if (counter !== sections) throw new Error(`${ring}: counter ${counter} ≠ ${sections} sections`);
    const cpuWait = cpuWaitOf(sections, reports);
    return { perSec: sections / seconds, cpu: cpuPer(sections, reports, redisMicros), ...(cpuWait ? { cpuWait } : {}) };
  } finally {
    await redis.del(counterKey);
    await redis.quit();
  }
}

/** One worker's part of the ring: wait for the turn, run its sections, pass the turn on, until the window ends. */
export async function runTurns(
  config: TurnConfig,
  ready: () => void,
  go: () => Promise<{ startAt: number; endAt: number }>,
): Promise<WorkerReport> {
  const [data, publisher, subscriber] = [1, 2, 3].map(() => new Redis(config.redisUrl));
  const next = `${config.channelPrefix}${(config.processIndex + 1) % config.processes}`;
  let sections = 0;
  let endAt = Number.POSITIVE_INFINITY;
  let error: string | undefined;
  const turn = async () => {
    for (let i = 0; i < config.sectionsPerTurn; i += 1) {
      if (Date.now() >= endAt) return; // the window closed: the turn stops here
      await counterSection(data, config.counterKey);
      sections += 1;
    }
    await publisher.spublish(next, 'turn');
  };
  let current: Promise<unknown> = Promise.resolve();
  const take = () => {
    current = turn().catch((e: unknown) => (error = String(e)));
  };
  try {
    subscriber.on('smessage', take);
    await subscriber.ssubscribe(`${config.channelPrefix}${config.processIndex}`);
    ready();
    const window = await go();
    endAt = window.endAt;
    await sleep(Math.max(0, window.startAt - Date.now()));
    const cpu = processCpuUntil(endAt);
    const sched = mainThreadSchedUntil(endAt);
    if (config.processIndex === 0) take();
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
    const schedRead = sched.read();
    return { ...report, cpuMicros: cpu.read(), ...(schedRead ? { sched: schedRead } : {}), error };
  } finally {
    await Promise.all([data, publisher, subscriber].map((r) => r.quit()));
  }
}
