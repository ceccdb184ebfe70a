import { readFileSync } from 'node:fs';
import { parseBusyMs, type BusySample } from './metrics/machine-cpu';

function readBusy(): BusySample | undefined {
  try {
    const busyMs = parseBusyMs(readFileSync('/proc/stat', 'utf8'));
    return busyMs === undefined ? undefined : { at: Date.now(), busyMs };
  } catch {
    return undefined; // not Linux: the report goes without it
  }
}

/**
 * Runs `work` while reading the machine's busy time every 20 ms (and once more at the end), so the
 * CPU up to a moment known only afterwards (a round's last grant) can be read off. A read is one
 * small file: the load it adds is the same for every strategy.
 */
export async function whileSampling<T>(
  work: () => Promise<T>,
): Promise<{ readonly result: T; readonly samples: readonly BusySample[] }> {
  const samples: BusySample[] = [];
  const take = () => {
    const sample = readBusy();
    if (sample) samples.push(sample);
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
