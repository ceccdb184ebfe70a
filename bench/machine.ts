import { existsSync, readFileSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';

export type MachineInfo = ReturnType<typeof machineInfo>;

export function machineInfo() {
  const cores = cpus();
  return {
    cpus: cores.length,
    cpuModel: cores[0]?.model.trim() ?? 'unknown',
    node: process.version,
    platform: `${platform()} ${release()}`,
    totalMemGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
  };
}

/**
 * Busy ms from /proc/stat's first line (every core): user, nice, system, irq and softirq (the loopback's TCP work).
 * Idle, iowait and steal (time the hypervisor gave to others) are not ours; guest time is already within user.
 */
export function parseBusyMs(procStat: string): number | undefined {
  const line = procStat.split('\n', 1)[0];
  if (!line.startsWith('cpu ')) return undefined;
  const [user, nice, system, , , irq, softirq] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + (irq ?? 0) + (softirq ?? 0);
  // In USER_HZ ticks: 100 a second on x86 and ARM.
  return Number.isFinite(busy) ? busy * 10 : undefined;
}

/** The whole machine's CPU time spent so far, every process and core together, in ms; undefined off Linux. */
export function machineBusyMs(): number | undefined {
  return existsSync('/proc/stat') ? parseBusyMs(readFileSync('/proc/stat', 'utf8')) : undefined;
}
