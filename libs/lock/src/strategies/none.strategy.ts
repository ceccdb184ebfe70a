import type { HeldLock, LockOptions, LockStrategy } from '../lock-strategy';

const neverAborted = new AbortController().signal;

/** No lock at all: the baseline whose lost updates every other strategy exists to prevent. */
export class NoneStrategy implements LockStrategy {
  readonly name = 'none';

  run<T>(resource: string, _options: LockOptions, critical: (lock: HeldLock) => Promise<T>): Promise<T> {
    return critical({ strategy: this.name, resource, owner: '', signal: neverAborted });
  }
}
