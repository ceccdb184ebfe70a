import { E_TIMEOUT, Mutex, withTimeout } from 'async-mutex';
import type { LockEventSink } from '../lock-events';
import { LockTimeoutError } from '../lock.errors';
import type { HeldLock, LockOptions, LockStrategy, LockStrategyDeps } from '../lock-strategy';

const neverAborted = new AbortController().signal;

/**
 * An in-process mutex per resource (Java's `synchronized`): exact inside one replica,
 * invisible to the others, so three replicas still oversell.
 */
export class SynchronizedStrategy implements LockStrategy {
  readonly name = 'synchronized';
  // One per resource, kept for the process's life: deleting one while a waiter holds a
  // reference would let a newcomer create a second mutex for the same resource.
  private readonly mutexes = new Map<string, Mutex>();
  private readonly events: LockEventSink;

  constructor(deps: LockStrategyDeps) {
    this.events = deps.events;
  }

  async run<T>(resource: string, options: LockOptions, critical: (lock: HeldLock) => Promise<T>): Promise<T> {
    const mutex = this.mutexFor(resource);
    const started = Date.now();
    let release: () => void;
    try {
      release = await withTimeout(mutex, options.waitMs).acquire();
    } catch (error) {
      if (error !== E_TIMEOUT) throw error;
      this.events.emit({ type: 'timeout', strategy: this.name, resource, owner: '', at: Date.now() });
      throw new LockTimeoutError(resource, Date.now() - started);
    }
    const acquiredAt = Date.now();
    this.events.emit({
      type: 'acquire',
      strategy: this.name,
      resource,
      owner: '',
      at: acquiredAt,
      durationMs: acquiredAt - started,
    });
    try {
      return await critical({ strategy: this.name, resource, owner: '', signal: neverAborted });
    } finally {
      release();
      this.events.emit({
        type: 'release',
        strategy: this.name,
        resource,
        owner: '',
        at: Date.now(),
        durationMs: Date.now() - acquiredAt,
      });
    }
  }

  private mutexFor(resource: string): Mutex {
    let mutex = this.mutexes.get(resource);
    if (!mutex) {
      mutex = new Mutex();
      this.mutexes.set(resource, mutex);
    }
    return mutex;
  }
}
