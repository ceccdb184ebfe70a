import { Redis } from 'ioredis';
import { ceilingCosts, cpuPer, fastestIndex, type CeilingReading, type CpuCost } from './cpu-cost';
import { runMeasuringCpu } from './cpu-probes';
import { settleCounterKey } from './critical-section';
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
  'the critical section run by each process in turn with no lock: a process runs it once, then passes the turn to the next process with SPUBLISH to a channel only that process listens on, for the same window after the same settle, once per round, each process warmed up first as the contenders are; the highest reading counts. A lock that serves the processes in turn, one grant each, and wakes the next by a Redis message (as ours does) cannot pass it.';

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

export const HANDOFF_CEILING_METHOD =
  "the turn ceiling's ring making, each turn, the Redis calls of a queue hand-off with a claim lease (the lock handed on for a short lease, which the taker then extends, so that a dead waiter holds it about a second at most), each at its least: the process whose turn it is claims the lock (PEXPIRE to the lease, on its own lock connection, sent once the section has sent its first command, as ours is, its answer read during the section), and passes the turn by setting the lock to the next process with the claim lease and waking it, in one Lua call on that connection; no owner check, no queue, no lock library; warmed up with those calls too; for the same window after the same settle, once per round; the highest reading counts. A lock that hands off through a Redis queue with a claim lease (as ours does, one grant per process in turn) makes these calls and more, so it cannot pass it; a design without the claim lease is not bound by it.";

/** Pure: the hand-off ring's ceiling from each round's reading (shaped as the turn ceiling, its own method). */
export function handoffCeiling(...readings: Parameters<typeof turnCeiling>): TurnCeiling {
  return { ...turnCeiling(...readings), method: HANDOFF_CEILING_METHOD };
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
  `the turn ceiling's ring with ${sectionsPerTurn} sections back to back per turn, no lock, for the same window after the same settle, once per round; the highest reading counts. A lock that serves the processes in turn, ${sectionsPerTurn} grants each, and wakes the next by a Redis message (as ours does) cannot pass it.`;

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

/** Sections per turn for a ring of one process that never passes the turn: the section alone. */
export const KEEP_TURN = Number.MAX_SAFE_INTEGER;

/**
 * One reading of the section alone: a ring of one process that never passes the turn, so the
 * section runs back to back from one client in a fresh process of the compiled worker, as the
 * contenders and the rings do (not in the bench's own process, under tsx).
 */
export function measureSectionAlone(pool: WorkerPool, redisUrl: string, seconds: number): Promise<CeilingReading> {
  if (pool.size !== 1) throw new Error(`the section alone runs in one process, not ${pool.size}`);
  return measureTurns(pool, redisUrl, seconds, KEEP_TURN);
}

/**
 * One reading: sections per second over the pool's processes, run `sectionsPerTurn` at a time
 * (1: the turn ceiling; more: the run ceiling; with `handOff`, the hand-off ring, its claim
 * taking the lease and its pass the claim lease), and their CPU cost per section; throws if the
 * counter disagrees with the sections.
 */
export async function measureTurns(
  pool: WorkerPool,
  redisUrl: string,
  seconds: number,
  sectionsPerTurn = 1,
  handOff?: { readonly leaseMs: number; readonly claimMs: number },
): Promise<CeilingReading> {
  const prefix = `bench:locks:turns:${Date.now()}`;
  const counterKey = `${prefix}:counter`;
  const lockKey = `${prefix}:lock`;
  const configs = Array.from({ length: pool.size }, (_, processIndex) => ({
    kind: 'turns' as const,
    redisUrl,
    processIndex,
    processes: pool.size,
    sectionsPerTurn,
    channelPrefix: `${prefix}:turn:`,
    counterKey,
    ...(handOff ? { handOff: { lockKey, ...handOff } } : {}),
  }));
  const redis = new Redis(redisUrl);
  try {
    const { reports, redisMicros } = await runMeasuringCpu(pool, redis, configs, seconds);
    const failed = reports.find((r) => r.error !== undefined);
    const ring = handOff ? 'hand-off ring' : ringName(sectionsPerTurn);
    if (failed) throw new Error(`${ring}: process ${failed.processIndex}: ${failed.error}`);
    const sections = reports.reduce((sum, r) => sum + r.grantsPerWaiter[0], 0);
    const counter = Number((await redis.get(counterKey)) ?? 0);
    if (counter !== sections) throw new Error(`${ring}: counter ${counter} ≠ ${sections} sections`);
    const cpuWait = cpuWaitOf(sections, reports);
    return { perSec: sections / seconds, cpu: cpuPer(sections, reports, redisMicros), ...(cpuWait ? { cpuWait } : {}) };
  } finally {
    await redis.del(counterKey, settleCounterKey(counterKey), lockKey);
    await redis.quit();
  }
}

function ringName(sectionsPerTurn: number): string {
  if (sectionsPerTurn === 1) return 'turn ceiling';
  return sectionsPerTurn === KEEP_TURN ? 'section alone' : 'run ceiling';
}
