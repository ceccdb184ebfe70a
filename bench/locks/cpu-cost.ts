import { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkerConfig, WorkerReport } from './messages';
import type { WorkerPool } from './worker-pool';

/**
 * CPU time spent per grant (or per section, per turn) inside the measured window, µs: the
 * bench's Node processes and Redis apart. On a machine of few cores this is what bounds a lock
 * that is never idle, so it shows each design's own cost beside its rate.
 */
export interface CpuCost {
  readonly node: number;
  readonly redis: number;
}

/** One reading of a ceiling: its rate, and its CPU cost per section or turn when measured. */
export interface CeilingReading {
  readonly perSec: number;
  readonly cpu?: CpuCost;
}

/** Pure: Redis's CPU time so far, µs, from the text of INFO cpu (user and system, every thread). */
export function redisCpuMicros(info: string): number {
  const seconds = (field: string) => {
    const match = new RegExp(`^${field}:([0-9.]+)`, 'm').exec(info);
    if (!match) throw new Error(`INFO cpu has no ${field}`);
    return Number(match[1]);
  };
  return Math.round((seconds('used_cpu_sys') + seconds('used_cpu_user')) * 1e6);
}

/**
 * Pure: CPU time per unit of work (a grant, a section, a turn) from the Node processes' readings
 * and Redis's; undefined unless every one was measured and some work was done.
 */
export function cpuPer(
  units: number,
  processes: readonly { readonly cpuMicros?: number }[],
  redisMicros: number | undefined,
): CpuCost | undefined {
  if (units <= 0 || redisMicros === undefined || processes.some((p) => p.cpuMicros === undefined)) return undefined;
  const nodeMicros = processes.reduce((sum, p) => sum + p.cpuMicros!, 0);
  return { node: nodeMicros / units, redis: redisMicros / units };
}

/** Pure: the CPU cost that goes with the fastest reading, the one a ceiling takes (by index). */
export function cpuOfFastest(
  readings: readonly number[],
  costs: readonly (CpuCost | undefined)[],
): CpuCost | undefined {
  return readings.length === 0 ? undefined : costs[readings.indexOf(Math.max(...readings))];
}

/** Redis's CPU time between two instants (epoch ms), read with INFO cpu at each. */
export async function redisCpuBetween(redis: Redis, startAt: number, endAt: number): Promise<number> {
  await sleep(Math.max(0, startAt - Date.now()));
  const before = redisCpuMicros(await redis.info('cpu'));
  await sleep(Math.max(0, endAt - Date.now()));
  return redisCpuMicros(await redis.info('cpu')) - before;
}

/** One window of the pool's workers, with the CPU time their processes and Redis spent inside it, µs. */
export async function runMeasuringCpu(
  pool: WorkerPool,
  redisUrl: string,
  configs: readonly WorkerConfig[],
  seconds: number,
): Promise<{ reports: WorkerReport[]; redisMicros: number }> {
  const redis = new Redis(redisUrl);
  let redisMicros: Promise<number> = Promise.resolve(0);
  try {
    const reports = await pool.run(configs, seconds, (startAt, endAt) => {
      redisMicros = redisCpuBetween(redis, startAt, endAt);
      redisMicros.catch(() => undefined); // awaited below, once the workers reported
    });
    return { reports, redisMicros: await redisMicros };
  } finally {
    await redis.quit();
  }
}

/**
 * Counts this process's CPU time (user and system) from now until `endAt` (epoch ms); `read`
 * before then gives the time so far. A timer takes the reading, so work that runs past the
 * window (a wait under way finishing) is not counted.
 */
export function processCpuUntil(endAt: number): { read(): number } {
  const start = process.cpuUsage();
  const spent = () => {
    const { user, system } = process.cpuUsage(start);
    return user + system;
  };
  let atEnd: number | undefined;
  const timer = setTimeout(() => (atEnd = spent()), Math.max(0, endAt - Date.now()));
  return {
    read: () => {
      clearTimeout(timer);
      return (atEnd ??= spent());
    },
  };
}

/** Pure: the cores a rate kept busy at this cost per unit (Node and Redis together). */
export function coresBusy(perSec: number, cost: CpuCost): number {
  return (perSec * (cost.node + cost.redis)) / 1e6;
}

/** How a cost reads in the reports: total, then Node and Redis apart, in µs. */
export function formatCpu(cost: CpuCost): string {
  return `${(cost.node + cost.redis).toFixed(0)} µs (${cost.node.toFixed(0)} Node + ${cost.redis.toFixed(0)} Redis)`;
}
