import type { Redis } from 'ioredis';
import type { Hold } from '../held-locks';
import type { LockEventSink, LockEventType } from '../lock-events';
import type { LockKeys } from '../lock-keys';
import type { LockRuntime } from '../lock-runtime';
import type { LockOptions, LockStrategyDeps } from '../lock-strategy';
import type { Attempt, HandOffVerb, ReleaseOutcome } from '../verbs/attempt';
import { countListeners } from '../verbs/count-listeners';
import { queueAcquire, type QueueLockKind } from '../verbs/queue-acquire';
import { queueClaim } from '../verbs/queue-claim';
import { queueRelease } from '../verbs/queue-release';
import { waitReplicas } from '../verbs/wait-replicas';
import { QUEUE_TIMING } from '../waiting/queue-timing';
import { LockUnavailableError } from '../lock.errors';

export interface RedisLockDeps extends LockStrategyDeps {
  readonly runtime: LockRuntime;
}

/** A kind of lock's scripts (Redisson's lesson: the variants differ only in these), each a verb of the connection. */
export interface LockVerbs {
  acquire(redis: Redis, keys: LockKeys, owner: string, leaseMs: number): Promise<Attempt>;
  release(redis: Redis, keys: LockKeys, owner: string, leaseMs: number): Promise<ReleaseOutcome>;
  /**
   * Passes a held lock straight to a waiter of this process, if it is still ours; never makes a
   * holder of a lock that was not. Without it, a strategy always releases for real.
   */
  readonly handOff?: HandOffVerb;
}

/** How a kind of lock behaves beyond its scripts; each trait off unless a strategy says so. */
export interface LockTraits {
  /** A flow that already holds the lock may take it again (skips the local line); only these kinds enter a flow. */
  readonly reentrant?: boolean;
  /** False for a lock without expiry (setnx): a holder's lock then runs out only if removed. */
  readonly leaseExpires?: boolean;
  /** How the lock is stored, for the queue wait mode; without it the strategy waits as before (pubsub). */
  readonly queue?: QueueLockKind;
  /**
   * A local hand-off may leave Redis as it is (lock cohorting): the taker holds under the run's
   * owner value and lease while that lease still covers its own. For a string lock that does not fence.
   */
  readonly sharesRun?: boolean;
}

/**
 * What a Redis strategy is made of: five hooks (its owner value, its verbs, its traits, and what
 * it does once held and before release) and the two wait paths that use them, the fair Redis
 * queue and the earlier wake-all path. RedisLockStrategy adds the holding: flow, events, the
 * critical section, hand-offs and release-in-finally.
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
  protected abstract readonly verbs: LockVerbs;
  protected readonly traits: LockTraits = {};
  /** Called once the lock is held, before the critical section (the watchdog starts renewing). */
  protected onHeld(_hold: Hold, _keys: LockKeys, _leaseMs: number): void {}
  /** Called before the release verb (the watchdog stops renewing and waits for a renewal in flight). */
  protected beforeRelease(_hold: Hold): Promise<void> | void {}

  protected get leaseExpires(): boolean {
    return this.traits.leaseExpires ?? true;
  }

  protected tryAcquire(keys: LockKeys, owner: string, leaseMs: number): Promise<Attempt> {
    return this.runtime.call((redis) => this.verbs.acquire(redis, keys, owner, leaseMs));
  }

  protected releaseVerb(keys: LockKeys, owner: string, leaseMs: number): Promise<ReleaseOutcome> {
    return this.runtime.call((redis) => this.verbs.release(redis, keys, owner, leaseMs));
  }

  protected acquire(keys: LockKeys, owner: string, options: LockOptions): Promise<Attempt> {
    const skipLine = this.traits.reentrant === true && this.runtime.holdsOf(keys.lock, owner).length > 0;
    const handoff = this.handsOff() ? { kind: this.name, owner, leaseMs: options.leaseMs } : undefined;
    const heldHere = () => this.runtime.holdsHere(keys.lock);
    const queueKind = this.traits.queue;
    if (queueKind && this.usesQueue()) {
      return this.runtime.waitInQueue({
        lineKey: keys.lock,
        channel: this.runtime.wakeChannel(keys),
        owner,
        kind: this.name,
        ...(queueKind.fenced && { fencedResource: keys.resource }),
        waitMs: options.waitMs,
        signal: options.signal,
        skipLine,
        reenter: () => this.tryAcquire(keys, owner, options.leaseMs),
        attempt: async (queue) => {
          const sentAt = Date.now(); // a lease it sets cannot end before sentAt + lease
          const waiter = { owner, tag: this.runtime.processTag };
          const timing = { ...QUEUE_TIMING, leaseMs: options.leaseMs, ...(queue ? {} : { heartbeatMs: 0 }) };
          const attempt = await this.runtime.call((redis) => queueAcquire(redis, keys, queueKind, waiter, timing));
          return { ...attempt, sentAt };
        },
        claim: () => this.runtime.call((redis) => queueClaim(redis, keys, queueKind, owner, options.leaseMs)),
        leave: () => this.releaseFor(keys, owner, options.leaseMs),
        handoff,
        heldHere,
      });
    }
    return this.runtime.waitForWakeUp({
      lineKey: keys.lock,
      wakeChannel: keys.wake,
      waitMs: options.waitMs,
      signal: options.signal,
      skipLine,
      attempt: () => this.attemptWithReplicas(keys, owner, options.leaseMs),
      handoff,
      listeners: () => this.runtime.call((redis) => countListeners(redis, keys.wake)),
      heldHere,
    });
  }

  /** The release verb of the wait mode in use: in the queue mode it hands the lock to the queue's head. */
  protected releaseFor(keys: LockKeys, owner: string, leaseMs: number, next?: string): Promise<ReleaseOutcome> {
    const queueKind = this.traits.queue;
    if (!queueKind || !this.usesQueue()) return this.releaseVerb(keys, owner, leaseMs);
    const tag = this.runtime.processTag;
    const timing = { leaseMs, claimMs: QUEUE_TIMING.claimMs, heartbeatMs: QUEUE_TIMING.heartbeatMs };
    const nextWaiter = next === undefined ? undefined : { owner: next, tag };
    return this.runtime.call((redis) => queueRelease(redis, keys, queueKind, { owner, tag }, timing, nextWaiter));
  }

  /**
   * A holder's release. In the queue mode it also queues the entry the head of this process's
   * line offers (`next`), so that head needs no join call of its own.
   */
  protected async releaseHeld(keys: LockKeys, owner: string, leaseMs: number): Promise<ReleaseOutcome> {
    const offer = this.usesQueue() ? this.runtime.takeEntryOffer(keys.lock, this.name) : undefined;
    try {
      const outcome = await this.releaseFor(keys, owner, leaseMs, offer?.owner);
      offer?.settled(outcome.status === 'released');
      return outcome;
    } catch (error) {
      offer?.settled(undefined);
      throw error;
    }
  }

  /** The queue wait mode, where the strategy's lock kind allows; WAIT for replicas keeps the earlier path. */
  protected usesQueue(): boolean {
    return this.traits.queue !== undefined && this.runtime.waitMode === 'queue' && !this.runtime.waitForReplicas;
  }

  /** Hand-offs need the strategy's script, and are off under WAIT (the taker would skip it). */
  protected handsOff(): boolean {
    return this.verbs.handOff !== undefined && !this.runtime.waitForReplicas && this.runtime.handoffLimit > 0;
  }

  /** One attempt, then (when configured) WAIT for replicas; too few acknowledgements undo it. */
  private async attemptWithReplicas(keys: LockKeys, owner: string, leaseMs: number): Promise<Attempt> {
    const sentAt = Date.now();
    const attempt = { ...(await this.tryAcquire(keys, owner, leaseMs)), sentAt };
    const wanted = this.runtime.waitForReplicas;
    if (!attempt.acquired || !wanted) return attempt;
    const acknowledged = await this.runtime.call((redis) =>
      waitReplicas(redis, wanted.replicas, wanted.timeoutMs, keys.lock),
    );
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
