import type { Hold } from '../held-locks';
import type { LockEventSink, LockEventType } from '../lock-events';
import { waiterWakeChannel, type LockKeys } from '../lock-keys';
import type { LockRuntime } from '../lock-runtime';
import type { LockOptions, LockStrategyDeps } from '../lock-strategy';
import type { Attempt, Handover, ReleaseOutcome } from '../verbs/attempt';
import { countListeners } from '../verbs/count-listeners';
import { queueAcquire, type QueueLockKind } from '../verbs/queue-acquire';
import { queueRelease } from '../verbs/queue-release';
import { waitReplicas } from '../verbs/wait-replicas';
import { acquireWithWait } from '../waiting/acquire-with-wait';
import { QUEUE_TIMING } from '../waiting/queue-timing';
import { acquireInQueue } from '../waiting/queue-wait';
import { LockUnavailableError } from '../lock.errors';

export interface RedisLockDeps extends LockStrategyDeps {
  readonly runtime: LockRuntime;
}

/**
 * What a Redis strategy is made of: its verbs (the hooks a strategy supplies) and the two wait
 * paths that use them, the fair Redis queue and the earlier wake-all path. RedisLockStrategy
 * adds the holding: flow, events, the critical section, hand-offs and release-in-finally.
 */
export abstract class RedisLockVerbs {
  abstract readonly name: string;
  protected readonly runtime: LockRuntime;
  protected readonly events: LockEventSink;

  constructor(deps: RedisLockDeps) {
    this.runtime = deps.runtime;
    this.events = deps.events;
  }

  /** The value that marks this holder: random per acquisition, or per flow for the reentrant kinds. */
  protected abstract ownerValue(): string;
  protected abstract tryAcquire(keys: LockKeys, owner: string, leaseMs: number): Promise<Attempt>;
  protected abstract releaseVerb(keys: LockKeys, owner: string, leaseMs: number): Promise<ReleaseOutcome>;
  /** Whether a flow that already holds the lock may take it again (skips the local line). */
  protected readonly reentrant: boolean = false;
  /** Called once the lock is held, before the critical section (the watchdog starts renewing). */
  protected onHeld(_hold: Hold, _keys: LockKeys, _leaseMs: number): void {}
  /** Called before the release verb (the watchdog stops renewing and waits for a renewal in flight). */
  protected async beforeRelease(_hold: Hold): Promise<void> {}
  /**
   * Passes a held lock straight to `nextOwner`, a waiter of this process, if it is still ours;
   * never makes a holder of a lock that was not. Without one, a strategy always releases for real.
   */
  protected handOffVerb?(keys: LockKeys, owner: string, nextOwner: string, leaseMs: number): Promise<Handover>;
  /** False for a lock without expiry (setnx): a holder's lock then runs out only if removed. */
  protected readonly leaseExpires: boolean = true;
  /** True when the taker needs the hand-off script's answer (a fencing token) before it starts. */
  protected readonly handOffAwaited: boolean = false;
  /** How the lock is stored, for the queue wait mode; without it the strategy waits as before (pubsub). */
  protected readonly queueKind?: QueueLockKind;

  protected acquire(keys: LockKeys, owner: string, options: LockOptions): Promise<Attempt> {
    const skipLine = this.reentrant && this.runtime.held.of(keys.lock, owner).length > 0;
    const handoff = this.handsOff() ? { kind: this.name, owner, leaseMs: options.leaseMs } : undefined;
    const heldHere = () => this.runtime.held.has(keys.lock);
    if (this.usesQueue()) {
      const waiter = { owner, tag: this.runtime.processTag };
      const timing = { ...QUEUE_TIMING, leaseMs: options.leaseMs };
      return acquireInQueue(this.runtime.queue, this.runtime.wake, {
        lineKey: keys.lock,
        channel: waiterWakeChannel(keys, this.runtime.processTag),
        owner,
        waitMs: options.waitMs,
        signal: options.signal,
        skipLine,
        reenter: () => this.tryAcquire(keys, owner, options.leaseMs),
        attempt: (queue) =>
          queueAcquire(
            this.runtime.redis,
            keys,
            this.queueKind!,
            waiter,
            queue ? timing : { ...timing, heartbeatMs: 0 },
          ),
        leave: () => this.releaseFor(keys, owner, options.leaseMs),
        handoff,
        heldHere,
      });
    }
    return acquireWithWait(this.runtime.queue, this.runtime.wake, {
      lineKey: keys.lock,
      wakeChannel: keys.wake,
      waitMs: options.waitMs,
      signal: options.signal,
      skipLine,
      attempt: () => this.attemptWithReplicas(keys, owner, options.leaseMs),
      handoff,
      listeners: () => countListeners(this.runtime.redis, keys.wake),
      heldHere,
    });
  }

  /** The release verb of the wait mode in use: in the queue mode it hands the lock to the queue's head. */
  protected releaseFor(keys: LockKeys, owner: string, leaseMs: number): Promise<ReleaseOutcome> {
    if (!this.usesQueue()) return this.releaseVerb(keys, owner, leaseMs);
    const waiter = { owner, tag: this.runtime.processTag };
    return queueRelease(this.runtime.redis, keys, this.queueKind!, waiter, { leaseMs, claimMs: QUEUE_TIMING.claimMs });
  }

  /** The queue wait mode, where the strategy's lock kind allows; WAIT for replicas keeps the earlier path. */
  protected usesQueue(): boolean {
    return this.queueKind !== undefined && this.runtime.waitMode === 'queue' && !this.runtime.waitForReplicas;
  }

  /** Hand-offs need the strategy's script, and are off under WAIT (the taker would skip it). */
  protected handsOff(): boolean {
    return this.handOffVerb !== undefined && !this.runtime.waitForReplicas && this.runtime.queue.handoffLimit > 0;
  }

  /** One attempt, then (when configured) WAIT for replicas; too few acknowledgements undo it. */
  private async attemptWithReplicas(keys: LockKeys, owner: string, leaseMs: number): Promise<Attempt> {
    const sentAt = Date.now();
    const attempt = { ...(await this.tryAcquire(keys, owner, leaseMs)), sentAt };
    const wanted = this.runtime.waitForReplicas;
    if (!attempt.acquired || !wanted) return attempt;
    const acknowledged = await waitReplicas(this.runtime.redis, wanted.replicas, wanted.timeoutMs, keys.lock);
    if (acknowledged >= wanted.replicas) return attempt;
    await this.releaseVerb(keys, owner, leaseMs);
    this.emit('replicas-missing', keys.resource, owner, {
      detail: `${acknowledged}/${wanted.replicas} replicas acknowledged`,
    });
    return { acquired: false, holderTtlMs: -2 };
  }

  protected async guard<T>(resource: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw new LockUnavailableError(resource, { cause: error });
    }
  }

  protected emit(
    type: LockEventType,
    resource: string,
    owner: string,
    extra: { durationMs?: number; detail?: string } = {},
  ): void {
    this.events.emit({ type, strategy: this.name, resource, owner, at: Date.now(), ...extra });
  }
}
