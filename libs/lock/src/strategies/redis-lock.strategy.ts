import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { inSomeFlow } from '../flow-context';
import type { Hold } from '../held-locks';
import type { LockEventSink, LockEventType } from '../lock-events';
import { lockKeys, type LockKeys } from '../lock-keys';
import type { LockRuntime } from '../lock-runtime';
import type { HeldLock, LockOptions, LockStrategy, LockStrategyDeps } from '../lock-strategy';
import { LockAbortedError, LockLostError, LockTimeoutError, LockUnavailableError } from '../lock.errors';
import { acquireFair, leaveQueue, type FairKind } from '../verbs/acquire-fair';
import type { Attempt, ReleaseOutcome, ReleaseStatus } from '../verbs/attempt';
import { handoffLock, type HandoffResult } from '../verbs/handoff';
import { releaseFair } from '../verbs/release-fair';
import { waitReplicas } from '../verbs/wait-replicas';
import { pauseBound, waitAsFront } from '../waiting/front-wait';

/** A queued front's heartbeat: a process dead at the queue's head holds the others up about this long. */
export const HEARTBEAT_MS = 1000;
/** A queued front attempts again at least this often: a lost wake-up costs at most one poll. */
export const POLL_MS = 300;
/** A front of a strategy without a queue (setnx, set-nx-px) retries at least this often. */
export const RETRY_MS = 20;

export interface RedisLockDeps extends LockStrategyDeps {
  readonly runtime: LockRuntime;
}

/** setnx's and set-nx-px's own verbs: no fair queue, so their front retries with bounded sleeps. */
export interface RetryVerbs {
  acquire(redis: Redis, keys: LockKeys, owner: string, leaseMs: number): Promise<Attempt>;
  release(redis: Redis, keys: LockKeys, owner: string): Promise<ReleaseOutcome>;
}

/** How each release status is reported. */
const releaseEvent: Record<ReleaseStatus, LockEventType> = {
  released: 'release',
  'still-held': 'release',
  'not-held': 'release-refused',
  expired: 'lost',
  'foreign-delete': 'foreign-delete',
};

/**
 * The one waiting design, for every Redis strategy: a waiter joins its process's line for the
 * lock; the line's front waits in Redis (the fair queue, woken on the process's channel, or
 * retries); the holder hands the lock to the next waiter of its line (confirmed by Redis before
 * that one runs) at most `handoffLimit` times in a row, then releases for real. A strategy
 * supplies its owner value, its lock kind, and what it does once held and before release.
 */
export abstract class RedisLockStrategy implements LockStrategy {
  abstract readonly name: string;
  private readonly logger = new Logger('Lock');
  protected readonly runtime: LockRuntime;
  protected readonly events: LockEventSink;
  /** How the lock is stored (hand-offs and the fair queue use it). */
  protected abstract readonly kind: FairKind;
  /** setnx and set-nx-px: their own verbs, no fair queue. */
  protected readonly retryVerbs?: RetryVerbs;
  /** A flow that holds the lock may take it again; only these kinds enter a flow. */
  protected readonly reentrant: boolean = false;
  /** False for setnx: its lock never expires, and a hand-off keeps it so. */
  protected readonly leaseExpires: boolean = true;

  constructor(deps: RedisLockDeps) {
    this.runtime = deps.runtime;
    this.events = deps.events;
  }

  /** The value that marks this holder: random per acquisition, or per flow for the reentrant kinds. */
  protected abstract ownerValue(): string;
  /** Called once the lock is held, before the critical section (the watchdog starts renewing). */
  protected onHeld(_hold: Hold, _keys: LockKeys, _leaseMs: number): void {}
  /** Called before the release (the watchdog stops renewing and waits for a renewal in flight). */
  protected async beforeRelease(_hold: Hold): Promise<void> {}

  run<T>(resource: string, options: LockOptions, critical: (lock: HeldLock) => Promise<T>): Promise<T> {
    if (!this.reentrant) return this.runHeld(resource, options, critical);
    return inSomeFlow(() => this.runHeld(resource, options, critical));
  }

  private async runHeld<T>(
    resource: string,
    options: LockOptions,
    critical: (lock: HeldLock) => Promise<T>,
  ): Promise<T> {
    const keys = lockKeys(resource);
    const owner = this.ownerValue();
    const started = Date.now();
    // A nested acquire by a flow that holds the lock skips the line: it is the line's front already.
    const nested = this.reentrant && this.runtime.holdsOf(keys.lock, owner).length > 0;
    const got = nested
      ? await this.waitInRedis(keys, owner, options, started, false)
      : await this.acquire(keys, owner, options);
    const acquiredAt = Date.now();
    const detail = got.viaHandoff ? 'handed off' : got.fenceToken?.toString();
    this.emit('acquire', resource, owner, { durationMs: acquiredAt - started, detail });
    const hold = this.newHold(keys, owner, options.leaseMs, acquiredAt, nested);
    this.runtime.hold(hold);
    if (options.signal?.aborted) {
      await hold.release();
      throw this.aborted(resource, owner, started, options.signal);
    }
    this.onHeld(hold, keys, options.leaseMs);
    const fenceToken = got.fenceToken === undefined ? undefined : Promise.resolve(got.fenceToken);
    try {
      return await critical({ strategy: this.name, resource, owner, signal: hold.lost.signal, fenceToken });
    } finally {
      await hold.release();
    }
  }

  /** Waits in the line, then (as its front) in Redis; throws when the lock was not had. */
  private async acquire(keys: LockKeys, owner: string, options: LockOptions) {
    const started = Date.now();
    const taker = { strategy: this.name, owner, leaseMs: options.leaseMs };
    const turn = await this.runtime.lines.join(keys.lock, taker, options.waitMs, options.signal);
    if (turn.by === 'handoff') return { fenceToken: turn.fenceToken, viaHandoff: true };
    if (turn.by === 'abort') throw this.aborted(keys.resource, owner, started, options.signal);
    if (turn.by === 'timeout') throw this.timedOut(keys.resource, owner, started, turn.holderTtlMs);
    const leftMs = Math.max(0, options.waitMs - (Date.now() - started));
    const queued = !this.retryVerbs && options.waitMs > 0;
    try {
      return await this.waitInRedis(keys, owner, { ...options, waitMs: leftMs }, started, queued);
    } catch (error) {
      // Gave up as the front: off the fair queue (nothing left behind), and the next waiter is the front.
      if (queued) {
        await this.runtime.call((redis) => leaveQueue(redis, keys, this.runtime.processTag)).catch(() => undefined);
      }
      this.runtime.lines.pass(keys.lock);
      throw error;
    }
  }

  /**
   * The front's wait in Redis: attempts (`queued`: in the fair queue), paused until a wake-up, the
   * holder's lease, or the bound.
   */
  private async waitInRedis(keys: LockKeys, owner: string, options: LockOptions, started: number, queued: boolean) {
    let attempt: Attempt;
    try {
      const wake = queued ? this.runtime.listen(keys) : undefined;
      try {
        attempt = await waitAsFront({
          waitMs: Math.max(0, options.waitMs - (Date.now() - started)),
          signal: options.signal,
          wake,
          attempt: () => this.attempt(keys, owner, options.leaseMs, queued),
          pauseMs: (failed) => pauseBound(failed.holderTtlMs, queued ? POLL_MS : RETRY_MS),
        });
      } finally {
        wake?.close();
      }
    } catch (error) {
      throw new LockUnavailableError(keys.resource, { cause: error });
    }
    if (options.signal?.aborted) {
      if (attempt.acquired) await this.releaseVerb(keys, owner, options.leaseMs).catch(() => undefined);
      throw this.aborted(keys.resource, owner, started, options.signal);
    }
    if (!attempt.acquired) throw this.timedOut(keys.resource, owner, started, attempt.holderTtlMs);
    return { fenceToken: attempt.fenceToken, viaHandoff: false };
  }

  /** One attempt, then (when configured) WAIT for replicas; too few acknowledgements undo it. */
  private async attempt(keys: LockKeys, owner: string, leaseMs: number, queued: boolean): Promise<Attempt> {
    const attempt = await this.runtime.call((redis) =>
      this.retryVerbs
        ? this.retryVerbs.acquire(redis, keys, owner, leaseMs)
        : acquireFair(
            redis,
            keys,
            this.kind,
            { owner, tag: this.runtime.processTag },
            leaseMs,
            queued ? HEARTBEAT_MS : 0,
          ),
    );
    this.runtime.lines.noteHolderTtl(keys.lock, attempt.holderTtlMs);
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

  private newHold(keys: LockKeys, owner: string, leaseMs: number, acquiredAt: number, nested: boolean): Hold {
    let released: Promise<void> | undefined;
    const hold: Hold = {
      strategy: this.name,
      lockKey: keys.lock,
      owner,
      lost: new AbortController(),
      release: () => (released ??= this.letGo(hold, keys, leaseMs, acquiredAt, nested)),
    };
    return hold;
  }

  /** Hands the lock to the next waiter of the line, or releases it for real and passes the front on. */
  private async letGo(hold: Hold, keys: LockKeys, leaseMs: number, acquiredAt: number, nested: boolean) {
    let viaHandoff = false;
    try {
      await this.beforeRelease(hold);
      viaHandoff = !nested && (await this.handoff(hold, keys));
      const outcome: ReleaseOutcome = viaHandoff
        ? { status: 'released', detail: 'handed off' }
        : await this.releaseVerb(keys, hold.owner, leaseMs);
      this.emit(releaseEvent[outcome.status], keys.resource, hold.owner, {
        durationMs: Date.now() - acquiredAt,
        detail: outcome.detail ?? (outcome.status === 'released' ? undefined : outcome.status),
      });
      if (outcome.status === 'foreign-delete') {
        this.logger.warn(`${this.name}: ${hold.owner} deleted ${keys.lock} held by ${outcome.detail}`);
      }
      if (outcome.status === 'not-held' || outcome.status === 'expired') {
        hold.lost.abort(new LockLostError(keys.resource));
      }
    } catch (error) {
      // The critical section has run; a failed release only leaves the lease to expire.
      this.emit('release-failed', keys.resource, hold.owner, { detail: String(error) });
      this.logger.warn(`${this.name}: release of ${keys.lock} failed: ${String(error)}`);
    } finally {
      this.runtime.unhold(hold);
      if (!nested && !viaHandoff) this.runtime.lines.pass(keys.lock);
    }
  }

  /**
   * Passes the lock to the next waiter of this process, if the run allows and Redis confirms it is
   * still ours (the taker runs only then). Off under WAIT: the taker would skip the replica check.
   */
  private async handoff(hold: Hold, keys: LockKeys): Promise<boolean> {
    if (this.runtime.waitForReplicas) return false;
    const taker = this.runtime.lines.takeNext(keys.lock, this.name);
    if (!taker) return false;
    let result: HandoffResult = { handed: false };
    try {
      const leaseMs = this.leaseExpires ? taker.leaseMs : 0;
      result = await this.runtime.call((redis) =>
        handoffLock(redis, keys, this.kind, hold.owner, taker.owner, leaseMs),
      );
    } finally {
      if (result.handed)
        this.runtime.lines.handedTo(keys.lock, taker, { by: 'handoff', fenceToken: result.fenceToken });
      else this.runtime.lines.putBack(keys.lock, taker);
    }
    return result.handed;
  }

  private releaseVerb(keys: LockKeys, owner: string, leaseMs: number): Promise<ReleaseOutcome> {
    return this.runtime.call((redis) =>
      this.retryVerbs
        ? this.retryVerbs.release(redis, keys, owner)
        : releaseFair(redis, keys, this.kind, owner, leaseMs),
    );
  }

  private timedOut(resource: string, owner: string, started: number, holderTtlMs?: number): LockTimeoutError {
    const waitedMs = Date.now() - started;
    this.emit('timeout', resource, owner, { durationMs: waitedMs });
    return new LockTimeoutError(
      resource,
      waitedMs,
      holderTtlMs !== undefined && holderTtlMs > 0 ? holderTtlMs : undefined,
    );
  }

  private aborted(resource: string, owner: string, started: number, signal?: AbortSignal): LockAbortedError {
    this.emit('timeout', resource, owner, { durationMs: Date.now() - started, detail: 'cancelled' });
    return new LockAbortedError(resource, { cause: signal?.reason });
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
