/** A wait's cancellation: `aborted` settles when the signal fires (never without one). */
export interface AbortWatch {
  readonly aborted: Promise<void>;
  /** False without a signal: a wait need not race `aborted` then (it would only add a reaction). */
  readonly watching: boolean;
  readonly isAborted: () => boolean;
  dispose(): void;
}

/** Without a signal: `aborted` is made only if asked for (one per wait: a promise that never settles keeps every reaction). */
class Unwatched implements AbortWatch {
  readonly watching = false;
  private never?: Promise<void>;

  get aborted(): Promise<void> {
    return (this.never ??= new Promise<void>(() => undefined));
  }

  isAborted(): boolean {
    return false;
  }

  dispose(): void {}
}

export function watchAbort(signal: AbortSignal | undefined): AbortWatch {
  if (!signal) return new Unwatched();
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return {
    aborted,
    watching: true,
    isAborted: () => signal.aborted,
    dispose: () => signal.removeEventListener('abort', onAbort),
  };
}

/** What a cancelled wait answers. */
export const ABORTED = { acquired: false, aborted: true } as const;
