import { cpus, platform, release, totalmem } from 'node:os';
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
    `Per strategy: a warm-up round of ${settings.warmupRequests} grabs on a coupon of its own, then a measured round of exactly`,
    `${settings.requests} grabs on a fresh coupon with stock ${settings.stock} (segmented: ${settings.segments} segments)`,
    `(autocannon, fixed amount) over ${settings.connections} connections through nginx to ${replicas} replicas,`,
    `one distinct userId per request, workMs ${settings.workMs} inside the critical section, no chaos.`,
    'Latency, status counts and req/s are measured by the client; grabs/s counts 200s up to the last one.',
    'Oversold, lost updates and concurrent holders come from the database audit; lock utilisation is the',
    "union of the grants' [enteredAt, leftAt] (database clock) over the span from first entry to last exit.",
    'Reconciled: the 200s the client saw equal the grant rows in the database.',
  ].join(' ');
}
