/**
 * Sleeps `ms`, ended early by `signal`'s abort or by a wake-up that `onWake` arranges (it gets the
 * wake function and returns how to stop listening). Timer and listeners are cleaned up either way.
 */
export function pause(ms: number, signal?: AbortSignal, onWake?: (wake: () => void) => () => void): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const state: { over: boolean; stop?: () => void } = { over: false };
    const done = () => {
      if (state.over) return;
      state.over = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      state.stop?.();
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener('abort', done, { once: true });
    state.stop = onWake?.(done);
    if (state.over) state.stop?.(); // woken while it was being arranged
  });
}
