import { readFileSync } from 'node:fs';

/**
 * What the Linux scheduler did with one thread inside a window: its time on a CPU, its time ready
 * to run but waiting for one (the run queue), and how often it was taken off a CPU while it could
 * still run (preempted). Read for a worker's main thread, where its event loop runs.
 */
export interface SchedReading {
  readonly runMicros: number;
  readonly waitMicros: number;
  readonly preemptions: number;
}

/**
 * How long the event loops of a contender's processes waited for a CPU while ready to run, as a
 * share of their ready time (on a CPU or waiting for one), and how often they were preempted.
 * On a machine with cores to spare the share is near 0; an event loop that is ready while
 * another process (Redis, say) holds its core waits.
 */
export interface CpuWait {
  readonly share: number;
  /** Per grant; for a ring, per section (a turn of the one-section ring is one section). */
  readonly preemptionsPerGrant: number;
}

/**
 * Pure: the main thread's figures from the text of /proc/self/schedstat (run and wait time in ns,
 * then timeslices) and of /proc/self/status (its nonvoluntary_ctxt_switches); undefined when
 * either lacks them (not Linux, or the kernel keeps no such statistics).
 */
export function parseSched(schedstat: string, status: string): SchedReading | undefined {
  const [run, wait] = schedstat.trim().split(/\s+/).map(Number);
  const preempted = /^nonvoluntary_ctxt_switches:\s*(\d+)/m.exec(status);
  if (!Number.isFinite(run) || !Number.isFinite(wait) || !preempted) return undefined;
  return { runMicros: run / 1000, waitMicros: wait / 1000, preemptions: Number(preempted[1]) };
}

/** This process's main thread's figures so far; undefined where /proc does not have them. */
export function readMainThreadSched(): SchedReading | undefined {
  try {
    return parseSched(readFileSync('/proc/self/schedstat', 'utf8'), readFileSync('/proc/self/status', 'utf8'));
  } catch {
    return undefined;
  }
}

/** Pure: what happened between two readings. */
export function schedBetween(start: SchedReading, end: SchedReading): SchedReading {
  return {
    runMicros: end.runMicros - start.runMicros,
    waitMicros: end.waitMicros - start.waitMicros,
    preemptions: end.preemptions - start.preemptions,
  };
}

/**
 * Pure: a contender's CPU wait over its processes' readings; undefined unless every process was
 * read, some grant was made and some time was counted (a kernel without scheduler statistics
 * reads all zeros, which is no measurement).
 */
export function cpuWaitOf(
  grants: number,
  processes: readonly { readonly sched?: SchedReading }[],
): CpuWait | undefined {
  if (grants <= 0 || processes.length === 0 || processes.some((p) => p.sched === undefined)) return undefined;
  const sum = (pick: (s: SchedReading) => number) => processes.reduce((total, p) => total + pick(p.sched!), 0);
  const ready = sum((s) => s.runMicros + s.waitMicros);
  if (ready <= 0) return undefined;
  return {
    share: sum((s) => s.waitMicros) / ready,
    preemptionsPerGrant: sum((s) => s.preemptions) / grants,
  };
}
