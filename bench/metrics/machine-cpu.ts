import { existsSync, readFileSync } from 'node:fs';

/** The machine's CPU time in use at one instant (`Date.now()`): all cores together, ms. */
export type BusySample = { readonly at: number; readonly busyMs: number };

/** /proc/stat counts in USER_HZ ticks: 100 on x86 and ARM. */
const MS_PER_TICK = 10;

/**
 * Busy time from /proc/stat's first line (every core): user, nice, system, irq and softirq (the
 * loopback's TCP work is done there). Idle, iowait and steal (time the hypervisor gave to others)
 * are not ours; guest time is already within user.
 */
export function parseBusyMs(procStat: string): number | undefined {
  const line = procStat.split('\n', 1)[0];
  if (!line.startsWith('cpu ')) return undefined;
  const [user, nice, system, , , irq, softirq] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + (irq ?? 0) + (softirq ?? 0);
  return Number.isFinite(busy) ? busy * MS_PER_TICK : undefined;
}

/** The busy time at `at`, linear between the samples around it; undefined outside them. */
function busyAt(samples: readonly BusySample[], at: number): number | undefined {
  const after = samples.findIndex((s) => s.at >= at);
  const [a, b] = [samples[after - 1], samples[after]] as (BusySample | undefined)[];
  if (b?.at === at) return b.busyMs;
  if (!a || !b) return undefined;
  return a.busyMs + ((b.busyMs - a.busyMs) * (at - a.at)) / (b.at - a.at);
}

/**
 * What a measured round cost the whole machine (replicas, nginx, PostgreSQL, Redis and the load
 * alike), over the span its grabs/s is taken on: from its start to its last grant. Per grant in
 * µs, and how many cores it kept busy; undefined when the samples do not cover the span.
 */
export function machineCpuPerGrant(
  samples: readonly BusySample[],
  round: { readonly startedAt: number; readonly lastGrantAfterMs: number; readonly statuses: { granted: number } },
) {
  const { startedAt, lastGrantAfterMs: spanMs, statuses } = round;
  const start = busyAt(samples, startedAt);
  const end = busyAt(samples, startedAt + spanMs);
  if (start === undefined || end === undefined || statuses.granted <= 0 || spanMs <= 0) return undefined;
  return { microsEach: ((end - start) * 1000) / statuses.granted, coresBusy: (end - start) / spanMs };
}
export type MachineCpu = NonNullable<ReturnType<typeof machineCpuPerGrant>>;

/**
 * Runs `work` while reading the machine's busy time every 20 ms (and once more at the end), so the
 * CPU up to a moment known only afterwards (a round's last grant) can be read off. Off Linux, no samples.
 */
export async function whileSampling<T>(work: () => Promise<T>): Promise<{ result: T; samples: BusySample[] }> {
  const samples: BusySample[] = [];
  const take = () => {
    const busyMs = existsSync('/proc/stat') ? parseBusyMs(readFileSync('/proc/stat', 'utf8')) : undefined;
    if (busyMs !== undefined) samples.push({ at: Date.now(), busyMs });
  };
  take();
  const timer = setInterval(take, 20).unref();
  try {
    return { result: await work(), samples };
  } finally {
    clearInterval(timer);
    take();
  }
}
