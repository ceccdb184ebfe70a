import { existsSync, readFileSync } from 'node:fs';

/** The machine's CPU time in use at one instant: all cores together, ms. */
export interface BusySample {
  /** `Date.now()` when read. */
  readonly at: number;
  readonly busyMs: number;
}

/** What a round cost the whole machine (replicas, nginx, PostgreSQL, Redis and the load alike). */
export type MachineCpu = NonNullable<ReturnType<typeof machineCpuOver>>;

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
  if (after < 0) return undefined;
  const b = samples[after];
  if (b.at === at) return b.busyMs;
  if (after === 0) return undefined;
  const a = samples[after - 1];
  return a.busyMs + ((b.busyMs - a.busyMs) * (at - a.at)) / (b.at - a.at);
}

/** The machine's CPU per unit (`count` of them) and cores kept busy over `[from, from + spanMs]`, if the samples cover it. */
export function machineCpuOver(samples: readonly BusySample[], from: number, spanMs: number, count: number) {
  const start = busyAt(samples, from);
  const end = busyAt(samples, from + spanMs);
  if (start === undefined || end === undefined || count <= 0 || spanMs <= 0) return undefined;
  const busyMs = end - start;
  // The CPU time per unit in µs, and over the span: how many cores it kept busy.
  return { microsEach: (busyMs * 1000) / count, coresBusy: busyMs / spanMs };
}

/** A measured round's figures, over the span its grabs/s is taken on: from its start to its last grant, per grant. */
export function machineCpuPerGrant(
  samples: readonly BusySample[],
  round: {
    readonly startedAt: number;
    readonly lastGrantAfterMs: number;
    readonly statuses: { readonly granted: number };
  },
): MachineCpu | undefined {
  return machineCpuOver(samples, round.startedAt, round.lastGrantAfterMs, round.statuses.granted);
}

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
