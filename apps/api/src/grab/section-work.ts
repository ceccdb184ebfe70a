import { setTimeout as sleep } from 'node:timers/promises';

export interface WorkOptions {
  readonly workMs?: number;
  readonly pauseMs?: number;
  readonly freezeMs?: number;
}

/** Blocks the whole thread, timers and renewers included, like a stop-the-world GC pause. */
export function freezeEventLoop(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The business work between reading the stock and writing it back, with the chaos stalls. */
export function sectionWork(options: WorkOptions): () => Promise<void> {
  return async () => {
    if (options.workMs) await sleep(options.workMs);
    if (options.pauseMs) await sleep(options.pauseMs);
    if (options.freezeMs) freezeEventLoop(options.freezeMs);
  };
}
