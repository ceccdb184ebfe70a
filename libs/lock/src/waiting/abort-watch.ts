/** A wait's cancellation: `aborted` settles when the signal fires (never without one). */
export interface AbortWatch {
  readonly aborted: Promise<void>;
  readonly isAborted: () => boolean;
  dispose(): void;
}

export function watchAbort(signal: AbortSignal | undefined): AbortWatch {
  if (!signal) return { aborted: new Promise<void>(() => undefined), isAborted: () => false, dispose: () => undefined };
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return {
    aborted,
    isAborted: () => signal.aborted,
    dispose: () => signal.removeEventListener('abort', onAbort),
  };
}

/** What a cancelled wait answers. */
export const ABORTED = { acquired: false, aborted: true } as const;
