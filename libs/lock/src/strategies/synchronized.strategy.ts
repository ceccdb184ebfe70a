import type { LockEventSink, LockEventType } from '../lock-events';
import { LockAbortedError, LockTimeoutError } from '../lock.errors';
import type { HeldLock, LockOptions, LockStrategy, LockStrategyDeps } from '../lock-strategy';
import { Lines } from '../waiting/line';

const neverAborted = new AbortController().signal;

/**
 * An in-process mutex per resource (Java's `synchronized`): exact inside one replica, invisible to
 * the others, so three replicas still oversell. It is the line every Redis strategy waits in, with
 * nothing in Redis: the front holds.
 */
export class SynchronizedStrategy implements LockStrategy {
  readonly name = 'synchronized';
  private readonly lines = new Lines(0);
  private readonly events: LockEventSink;

  constructor(deps: LockStrategyDeps) {
    this.events = deps.events;
  }

  async run<T>(resource: string, options: LockOptions, critical: (lock: HeldLock) => Promise<T>): Promise<T> {
    const started = Date.now();
    const taker = { strategy: this.name, owner: '', leaseMs: options.leaseMs };
    const turn = await this.lines.join(resource, taker, performance.now() + options.waitMs, options.signal);
    // A wait of 0 behind the front: its one attempt is this look at the line, and the lock is held.
    if (turn.by !== 'front') {
      this.emit('timeout', resource, Date.now() - started, turn.by === 'abort' ? 'cancelled' : undefined);
      if (turn.by === 'abort') throw new LockAbortedError(resource, { cause: options.signal?.reason });
      throw new LockTimeoutError(resource, Date.now() - started);
    }
    const acquiredAt = Date.now();
    this.emit('acquire', resource, acquiredAt - started);
    try {
      if (options.signal?.aborted) throw new LockAbortedError(resource, { cause: options.signal.reason });
      return await critical({ strategy: this.name, resource, owner: '', signal: neverAborted });
    } finally {
      this.lines.pass(resource);
      this.emit('release', resource, Date.now() - acquiredAt);
    }
  }

  private emit(type: LockEventType, resource: string, durationMs: number, detail?: string): void {
    this.events.emit({ type, strategy: this.name, resource, owner: '', at: Date.now(), durationMs, detail });
  }
}
