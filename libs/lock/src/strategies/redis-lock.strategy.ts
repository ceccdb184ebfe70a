import { Logger } from '@nestjs/common';
import { heldFenceToken } from '../fence-tokens';
import { inSomeFlow } from '../flow-context';
import type { Hold } from '../held-locks';
import type { LockEventType } from '../lock-events';
import { lockKeys, type LockKeys } from '../lock-keys';
import { LossSignal } from '../loss-signal';
import { handOffLocally, type LocalHandOff } from './local-handoff';
import { RedisLockVerbs } from './redis-lock-verbs';
import { LockAbortedError, LockLostError, LockTimeoutError, LockUnavailableError } from '../lock.errors';
import type { HeldLock, LockOptions, LockStrategy } from '../lock-strategy';
import type { Attempt, ReleaseStatus } from '../verbs/attempt';
import { takerFirst } from '../waiting/handoff-slot';

/** How each release status is reported. */
const releaseEvent: Record<ReleaseStatus, LockEventType> = {
  released: 'release',
  'still-held': 'release',
  'not-held': 'release-refused',
  expired: 'lost',
  'foreign-delete': 'foreign-delete',
};

/**
 * The shared plumbing of every Redis strategy: flow, waiting, the replica check, events, the
 * critical section and release-in-finally. A strategy supplies only its owner value and its
 * acquire/release verbs (Redisson's lesson: the variants differ only in their scripts).
 */
export abstract class RedisLockStrategy extends RedisLockVerbs implements LockStrategy {
  private readonly logger = new Logger('Lock');

  run<T>(resource: string, options: LockOptions, critical: (lock: HeldLock) => Promise<T>): Promise<T> {
    // Only a reentrant lock's owner value names the flow. Entering one turns on Node's async
    // context tracking, which every promise of the process then pays for (about a tenth of a
    // locally handed-off grant, measured), so the other kinds do not enter one. (The API enters a
    // flow per request all the same, since it serves the reentrant kinds too.)
    if (!this.traits.reentrant) return this.runHeld(resource, options, critical);
    return inSomeFlow(() => this.runHeld(resource, options, critical));
  }

  private async runHeld<T>(
    resource: string,
    options: LockOptions,
    critical: (lock: HeldLock) => Promise<T>,
  ): Promise<T> {
    const keys = lockKeys(resource);
    const asked = this.ownerValue();
    const started = Date.now();
    let attempt: Attempt;
    try {
      attempt = await this.acquire(keys, asked, options); // guard's work, without its closure: this runs per grant
    } catch (error) {
      throw new LockUnavailableError(resource, { cause: error });
    }
    const owner = attempt.runOwner ?? asked; // a taker within a run holds under the run's value
    if (attempt.aborted || (attempt.acquired && options.signal?.aborted)) {
      if (attempt.acquired) {
        // A waiter that left its line holding the lock makes the next one wait for this release.
        await this.guard(resource, () => this.releaseFor(keys, owner, options.leaseMs)).finally(() =>
          this.runtime.releasedHere(keys.lock),
        );
      }
      this.emit('timeout', resource, owner, { durationMs: Date.now() - started, detail: 'cancelled' });
      throw new LockAbortedError(resource, { cause: options.signal?.reason });
    }
    if (!attempt.acquired) {
      const waitedMs = Date.now() - started;
      this.emit('timeout', resource, owner, { durationMs: waitedMs });
      const ttl = attempt.holderTtlMs;
      throw new LockTimeoutError(resource, waitedMs, ttl !== undefined && ttl > 0 ? ttl : undefined);
    }
    const acquiredAt = Date.now();
    this.emit('acquire', resource, owner, {
      durationMs: acquiredAt - started,
      detail: attempt.handedOff ? 'handed off' : attempt.fromQueue ? 'from the queue' : attempt.fenceToken?.toString(),
    });
    const hold = this.newHold(keys, owner, options.leaseMs, acquiredAt, attempt.sentAt ?? started, attempt);
    this.runtime.hold(hold);
    // Told only now that our hold is registered, so a refusal that lands early still reaches it.
    void attempt.confirmation?.then((lost) => {
      if (lost) this.handOffFailed(keys, owner, lost);
    });
    this.onHeld(hold, keys, options.leaseMs);
    const fenceToken = heldFenceToken(attempt);
    try {
      return await critical({
        strategy: this.name,
        resource,
        owner,
        get signal() {
          return hold.loss.signal; // made on first look (see LossSignal)
        },
        fenceToken,
      });
    } finally {
      await hold.release();
    }
  }

  private newHold(
    keys: LockKeys,
    owner: string,
    leaseMs: number,
    acquiredAt: number,
    leaseFrom: number,
    attempt: Attempt,
  ): Hold {
    let released: Promise<void> | undefined;
    const hold: Hold = {
      strategy: this.name,
      lockKey: keys.lock,
      owner,
      loss: new LossSignal(attempt.runOwner ? () => this.checkRun(hold, keys) : undefined),
      release: () => {
        attempt.sendClaim?.(); // a claim still waiting goes out first, ahead of the release on the lock connection
        return (released ??= this.releaseHold(hold, keys, leaseMs, acquiredAt, leaseFrom));
      },
    };
    return hold;
  }

  private async releaseHold(
    hold: Hold,
    keys: LockKeys,
    leaseMs: number,
    acquiredAt: number,
    leaseFrom: number,
  ): Promise<void> {
    let handed = false;
    try {
      const before = this.beforeRelease(hold);
      if (before) await before; // most kinds have nothing to do: no turn of the loop for them
      const leaseEndsBy = this.leaseExpires ? leaseFrom + leaseMs : Infinity;
      let handOff = this.handsOffNow(hold) ? handOffLocally(this.localHandOff, hold, keys, leaseEndsBy) : undefined;
      if (handOff instanceof Promise) handOff = await handOff; // only the script's way is awaited
      handed = handOff !== undefined;
      const outcome = handOff ?? (await this.releaseHeld(keys, hold.owner, leaseMs));
      this.emit(releaseEvent[outcome.status], keys.resource, hold.owner, {
        durationMs: Date.now() - acquiredAt,
        detail: outcome.detail ?? (outcome.status === 'released' ? undefined : outcome.status),
      });
      if (outcome.status === 'foreign-delete') {
        this.logger.warn(`${this.name}: ${hold.owner} deleted ${keys.lock} held by ${outcome.detail}`);
      }
      if (outcome.status === 'not-held' || outcome.status === 'expired') {
        hold.loss.abort(new LockLostError(keys.resource));
      }
    } catch (error) {
      // The critical section has run; a failed release only leaves the lease to expire.
      this.emit('release-failed', keys.resource, hold.owner, { detail: String(error) });
      this.logger.warn(`${this.name}: release of ${keys.lock} failed: ${String(error)}`);
    } finally {
      this.runtime.unhold(hold);
      if (!handed) this.runtime.releasedForReal(keys.lock);
      this.runtime.releasedHere(keys.lock);
    }
    if (handed) await takerFirst();
  }

  /** Whether this hold may hand off: the strategy has the script, and no other hold of this flow nests here. */
  private handsOffNow(hold: Hold): boolean {
    if (!this.verbs.handOff || !this.handsOff()) return false;
    return !this.traits.reentrant || this.runtime.holdsOf(hold.lockKey, hold.owner).length <= 1;
  }

  /** Made once, on the first hand-off (a subclass's verbs and traits are not set while the base constructs). */
  private handOffHow?: LocalHandOff;

  private get localHandOff(): LocalHandOff {
    return (this.handOffHow ??= {
      runtime: this.runtime,
      kind: this.name,
      verb: this.verbs.handOff!,
      fenced: this.traits.queue?.fenced === true,
      sharesRun: this.traits.sharesRun === true,
    });
  }

  /** A hold handed on within its run, asked for its lost-lock signal: is the lock still the run's in Redis? */
  private checkRun(hold: Hold, keys: LockKeys): void {
    void this.runtime
      .call((redis) => redis.get(keys.lock))
      .then(
        (value) => (value === hold.owner ? undefined : 'the check found the lock gone'),
        (error: unknown) => `the check failed: ${String(error)}`,
      )
      .then((lost) => {
        if (!lost) return;
        this.emit('lost', keys.resource, hold.owner, { detail: lost });
        hold.loss.abort(new LockLostError(keys.resource));
      });
  }

  private handOffFailed(keys: LockKeys, owner: string, detail: string): void {
    this.emit('lost', keys.resource, owner, { detail });
    for (const held of this.runtime.holdsOf(keys.lock, owner)) held.loss.abort(new LockLostError(keys.resource));
  }
}
