import { LockAbortedError } from '../lock.errors';
import type { HeldLock, LockOptions, LockStrategy } from '../lock-strategy';

const neverAborted = new AbortController().signal;

/** No lock at all: the baseline whose lost updates every other strategy exists to prevent. */
export class NoneStrategy implements LockStrategy {
  readonly name = 'none';

  run<T>(resource: string, options: LockOptions, critical: (lock: HeldLock) => Promise<T>): Promise<T> {
    // Nothing to wait for, but a caller already gone still never runs its section.
    if (options.signal?.aborted)
      return Promise.reject(new LockAbortedError(resource, { cause: options.signal.reason }));
    return critical({ strategy: this.name, resource, owner: '', signal: neverAborted });
  }
}
