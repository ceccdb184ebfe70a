import type { CpuWait } from './sched-probe';

/**
 * CPU time spent per grant (or per section, per turn) inside the measured window, µs: the
 * bench's worker processes and Redis apart. The rate of a run is the cores it kept busy divided
 * by this, so it shows what each design spends beside how fast it went.
 */
export interface CpuCost {
  readonly node: number;
  readonly redis: number;
}

/** One reading of a ceiling: its rate, and its CPU cost per section or turn when measured. */
export interface CeilingReading {
  readonly perSec: number;
  readonly cpu?: CpuCost;
  /** How long its processes' event loops waited for a CPU (the rings; Linux). */
  readonly cpuWait?: CpuWait;
}

/** Pure: Node's and Redis's time together, µs per unit. */
export function totalMicros(cost: CpuCost): number {
  return cost.node + cost.redis;
}

/** Pure: the cores a rate kept busy at this cost per unit (rate × CPU per unit). */
export function coresBusy(perSec: number, cost: CpuCost): number {
  return (perSec * totalMicros(cost)) / 1e6;
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

/**
 * Pure: what a ceiling keeps of its readings' costs: the cost of its fastest reading (the one
 * whose rate it takes), and every reading's, in order (null where not measured), to check it by.
 */
export function ceilingCosts(
  readings: readonly number[],
  costs: readonly (CpuCost | undefined)[],
): { fastest?: CpuCost; all?: (CpuCost | null)[] } {
  if (readings.length === 0 || costs.every((c) => c === undefined)) return {};
  const fastest = costs[fastestIndex(readings)];
  return { ...(fastest ? { fastest } : {}), all: readings.map((_, i) => costs[i] ?? null) };
}

/** Pure: which reading a ceiling takes (its highest: a disturbed reading would flatter the locks). */
export function fastestIndex(readings: readonly number[]): number {
  return readings.indexOf(Math.max(...readings));
}
