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
 * Reads the machine's busy time every `everyMs` until stopped (once more then), so the time up to
 * a moment known only afterwards (a round's last grant) can be read off. A read is one small file:
 * the load it adds is the same for every strategy. The timer is unref'd: a round that throws must
 * not keep the process alive.
 */
export function sampleMachineCpu(everyMs = 20): { readonly samples: readonly BusySample[]; stop(): void } {
  const samples: BusySample[] = [];
  const take = () => {
    const sample = readBusy();
    if (sample) samples.push(sample);
  };
  take();
  let timer: ReturnType<typeof setInterval> | undefined = setInterval(take, everyMs).unref();
  return {
    samples,
    stop() {
      if (!timer) return;
      clearInterval(timer);
      timer = undefined;
      take();
    },
  };
}

/** Runs `work` while sampling the machine's CPU: the samples span it, from before its start to after its end. */
export async function whileSampling<T>(
  work: () => Promise<T>,
): Promise<{ readonly result: T; readonly samples: readonly BusySample[] }> {
  const sampler = sampleMachineCpu();
  try {
    return { result: await work(), samples: sampler.samples };
  } finally {
    sampler.stop(); // its last read lands in `samples` before the caller sees them
  }
}
