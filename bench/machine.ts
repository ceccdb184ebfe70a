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
