import { cpus, platform, release, totalmem } from 'node:os';
import { rateRequests } from './options';
import type { BenchSettings, MachineInfo } from './types';

export function machineInfo(): MachineInfo {
  const cores = cpus();
  return {
    cpus: cores.length,
    cpuModel: cores[0]?.model.trim() ?? 'unknown',
    node: process.version,
    platform: `${platform()} ${release()}`,
    totalMemGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
  };
}

/** How the figures were taken, in one paragraph that heads every report. */
export function methodText(settings: BenchSettings, replicas: number): string {
  return [
    `For each load (workMs ${settings.loads.join(' and ')}), per strategy: a warm-up round of ${settings.warmupRequests}`,
    `grabs on a coupon of its own, then a measured round of exactly ${settings.requests} grabs on a fresh coupon with`,
    `stock ${settings.stock} (segmented: ${settings.segments} segments), over ${settings.connections} connections`,
    `through nginx to ${replicas} replicas (autocannon, fixed amount), one distinct userId per request; once the`,
    `coupon sold out, ${rateRequests(settings)} grabs on it, as many as the ceilings send (sold-out answers). Every grab that gets past the sold-out check`,
    'spends workMs where its design puts it. grabs/s counts 200s up to the last one, shown as a share of the lowest',
    'ceiling its grabs pass through, measured after the loads. Oversold, lost updates, holders and the sections',
    'come from the database.',
  ].join(' ');
}
