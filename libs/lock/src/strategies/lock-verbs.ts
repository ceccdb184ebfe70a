import type { Redis } from 'ioredis';
import type { LockKeys } from '../lock-keys';
import type { LockRuntime } from '../lock-runtime';
import { acquireFair, leaveQueue, type FairKind } from '../verbs/acquire-fair';
import type { Attempt, ReleaseOutcome } from '../verbs/attempt';
import { handoffLock, type HandoffResult } from '../verbs/handoff';
import { releaseFair } from '../verbs/release-fair';
import { waitReplicas } from '../verbs/wait-replicas';
import type { Taker } from '../waiting/line';

/** A queued front's heartbeat: a process dead at the queue's front holds the others up about this long. */
export const HEARTBEAT_MS = 1000;

/** How a strategy takes and gives back its lock in Redis. */
export type LockVerbs = QueuedVerbs | RetryVerbs;

/** The fair queue's scripts, for one kind of lock. */
export interface QueuedVerbs {
  readonly queued: true;
  readonly kind: FairKind;
}

/** setnx's and set-nx-px's own commands: no queue, so their front retries with bounded sleeps. */
export interface RetryVerbs {
  readonly queued: false;
  acquire(redis: Redis, keys: LockKeys, owner: string, leaseMs: number): Promise<Attempt>;
  release(redis: Redis, keys: LockKeys, owner: string): Promise<ReleaseOutcome>;
  /** False for setnx: its lock never expires, and a hand-off keeps it so. */
  readonly expires: boolean;
}

/**
 * How an attempt stands in the fair queue: `queued` keeps (or takes) its process's place there,
 * with a heartbeat; `unqueued` attempts once at that place, never queuing (a wait of 0, a nested
 * acquire); `newcomer` attempts once as if from no process, so a free lock goes to whoever is
 * queued first, its own process's front included (a call with no time to wait behind that front).
 */
export type Standing = 'queued' | 'unqueued' | 'newcomer';

/** A retried lock is a plain string value: a hand-off swaps it as such. */
const PLAIN: FairKind = { kind: 'string', fenced: false };

/** A strategy's verbs, run on its process's runtime. */
export class StrategyVerbs {
  constructor(
    private readonly runtime: LockRuntime,
    private readonly verbs: LockVerbs,
  ) {}

  get queued(): boolean {
    return this.verbs.queued;
  }

  /** One attempt, standing as said; then under WAIT the replicas' acknowledgements: too few give the lock back. */
  async attempt(keys: LockKeys, owner: string, leaseMs: number, standing: Standing): Promise<Attempt> {
    const { runtime, verbs } = this;
    const heartbeatMs = standing === 'queued' ? HEARTBEAT_MS : 0;
    // A tag no queue holds: the newcomer cannot take its process's place.
    const tag = standing === 'newcomer' ? `${runtime.processTag}:newcomer` : runtime.processTag;
    const attempt = await runtime.call((redis) =>
      verbs.queued
        ? acquireFair(redis, keys, verbs.kind, { owner, tag }, leaseMs, heartbeatMs)
        : verbs.acquire(redis, keys, owner, leaseMs),
    );
    const wanted = runtime.waitForReplicas;
    if (!attempt.acquired || !wanted) return attempt;
    const acknowledged = await runtime.call((redis) =>
      waitReplicas(redis, wanted.replicas, wanted.timeoutMs, keys.lock),
    );
    if (acknowledged >= wanted.replicas) return attempt;
    await this.release(keys, owner, leaseMs);
    return { acquired: false, why: 'replicas-missing', acknowledged, wanted: wanted.replicas };
  }

  release(keys: LockKeys, owner: string, leaseMs: number): Promise<ReleaseOutcome> {
    const verbs = this.verbs;
    return this.runtime.call((redis) =>
      verbs.queued ? releaseFair(redis, keys, verbs.kind, owner, leaseMs) : verbs.release(redis, keys, owner),
    );
  }

  /** handoff.lua: `owner`'s lock becomes `taker`'s, with the taker's lease (none for setnx). */
  handoff(keys: LockKeys, owner: string, taker: Taker): Promise<HandoffResult> {
    const verbs = this.verbs;
    const kind = verbs.queued ? verbs.kind : PLAIN;
    const leaseMs = verbs.queued || verbs.expires ? taker.leaseMs : 0;
    return this.runtime.call((redis) => handoffLock(redis, keys, kind, owner, taker.owner, leaseMs));
  }

  /** Takes this process off the fair queue: its front gave up, and nobody of it waits in Redis. */
  async leaveQueue(keys: LockKeys): Promise<void> {
    if (this.verbs.queued) await this.runtime.call((redis) => leaveQueue(redis, keys, this.runtime.processTag));
  }
}
