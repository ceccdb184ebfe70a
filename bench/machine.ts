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
    `First the stack is warmed up (every strategy's path runs, untimed, so none is measured before V8 compiled it). The ceilings, measured in the same run before and after the strategies (see ceilings.method). For each load (workMs ${settings.loads.join(' and ')}),`,
    `per strategy: a warm-up round of ${settings.warmupRequests} grabs on a coupon of its own, then a measured round of exactly`,
    `${settings.requests} grabs on a fresh coupon with stock ${settings.stock} (segmented: ${settings.segments} segments)`,
    `(autocannon, fixed amount) over ${settings.connections} connections through nginx to ${replicas} replicas,`,
    'one distinct userId per request, no chaos; once the coupon sold out, twice as many grabs again on it (sold-out answers).',
    'Every grab that gets past the sold-out check spends workMs, where its design puts it (scenarios.ts: workAt).',
    'Latency, answers and rates are measured by the client; grabs/s counts 200s up to the last one, and is shown as a',
    'share of the lowest ceiling its grabs pass through. Oversold, lost updates and concurrent holders come from the',
    "database audit; lock utilisation is the union of the grants' [enteredAt, leftAt] (database clock) over the span",
    'from first entry to last exit. Reconciled: the 200s the client saw equal the grant rows in the database.',
    settings.probeWorkMs > 0
      ? `Work probe: 3 buyers at once per strategy with workMs ${settings.probeWorkMs}; every granted answer must take at least that long.`
      : '',
  ]
    .filter(Boolean)
    .join(' ');
}
