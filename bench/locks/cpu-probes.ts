import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { redisCpuMicros } from './cpu-cost';
import type { WorkerConfig, WorkerReport } from './messages';
import { readMainThreadSched, schedBetween, type SchedReading } from './sched-probe';
import type { WorkerPool } from './worker-pool';

/**
 * Redis's CPU time between two instants (epoch ms), read with INFO cpu at each (to within the
 * event loop's lag, a few ms in 5 s). `signal` gives up the wait when the run failed meanwhile.
 */
export async function redisCpuBetween(
  redis: Redis,
  startAt: number,
  endAt: number,
  signal?: AbortSignal,
): Promise<number> {
  await sleep(Math.max(0, startAt - Date.now()), undefined, { signal });
  const before = redisCpuMicros(await redis.info('cpu'));
  await sleep(Math.max(0, endAt - Date.now()), undefined, { signal });
  return redisCpuMicros(await redis.info('cpu')) - before;
}

/**
 * One window of the pool's workers, with the CPU time Redis spent inside it, µs (each worker
 * reports its own), read on the caller's connection (which then reads the counter on it too).
 */
export async function runMeasuringCpu(
  pool: WorkerPool,
  redis: Redis,
  configs: readonly WorkerConfig[],
  seconds: number,
): Promise<{ reports: WorkerReport[]; redisMicros: number }> {
  const done = new AbortController();
  let redisMicros: Promise<number> = Promise.resolve(0);
  try {
    const reports = await pool.run(configs, seconds, (startAt, endAt) => {
      redisMicros = redisCpuBetween(redis, startAt, endAt, done.signal);
      redisMicros.catch(() => undefined); // awaited below, once the workers reported
    });
    return { reports, redisMicros: await redisMicros };
  } finally {
    done.abort(); // a failed run does not wait out the window
  }
}

/**
 * A worker's readings over the counted window: waits for `countFrom` (its work runs meanwhile),
 * then counts the process's CPU time and its main thread's scheduling until `endAt`; `read` gives
 * them as a report carries them.
 */
export async function windowReadings(
  countFrom: number,
  endAt: number,
): Promise<{ read(): Pick<WorkerReport, 'cpuMicros' | 'sched'> }> {
  await sleep(Math.max(0, countFrom - Date.now()));
  const cpu = processCpuUntil(endAt);
  const sched = mainThreadSchedUntil(endAt);
  return {
    read: () => {
      const schedRead = sched.read();
      return { cpuMicros: cpu.read(), ...(schedRead ? { sched: schedRead } : {}) };
    },
  };
}

/**
 * Counts this process's CPU time (user and system, µs) from now until `endAt` (epoch ms). A timer
 * takes the reading at `endAt`, so work that runs past the window (a wait under way finishing) is
 * not counted; `read`, called once at the end, gives that reading (the time so far if called
 * before the timer ran).
 */
export function processCpuUntil(endAt: number, usedMicros = processCpuMicros): { read(): number } {
  return readingUntil(endAt, usedMicros, (start, end) => end - start);
}

/** The main thread's scheduler figures from now until `endAt`, as processCpuUntil counts CPU time; undefined off Linux. */
export function mainThreadSchedUntil(
  endAt: number,
  read: () => SchedReading | undefined = readMainThreadSched,
): { read(): SchedReading | undefined } {
  return readingUntil(endAt, read, (start, end) => (start && end ? schedBetween(start, end) : undefined));
}

/** A reading taken now and again at `endAt` by a timer (or when read early), and what changed between. */
function readingUntil<T, D>(endAt: number, take: () => T, between: (start: T, end: T) => D): { read(): D } {
  const start = take();
  let atEnd: { value: D } | undefined;
  const timer = setTimeout(() => (atEnd = { value: between(start, take()) }), Math.max(0, endAt - Date.now()));
  return {
    read: () => {
      clearTimeout(timer);
      return (atEnd ?? { value: between(start, take()) }).value;
    },
  };
}

function processCpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}
