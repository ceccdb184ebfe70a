import { existsSync, readFileSync } from 'node:fs';

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

/** The whole machine's CPU time spent so far, every process and core together, in ms; undefined off Linux. */
export function machineBusyMs(): number | undefined {
  return existsSync('/proc/stat') ? parseBusyMs(readFileSync('/proc/stat', 'utf8')) : undefined;
}
