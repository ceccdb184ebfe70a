import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { LockEventSink } from '../lock-events';
import { lockKeys } from '../lock-keys';
import { LockAbortedError, LockLostError, LockTimeoutError } from '../lock.errors';
import type { HeldLock, LockOptions, LockStrategy } from '../lock-strategy';
import type { Attempt } from '../verbs/attempt';
import { acquireWithWait } from '../waiting/acquire-with-wait';
import { takerFirst } from '../waiting/handoff-slot';
import type { LocalQueue } from '../waiting/local-queue';
import type { WakeSubscriber } from '../waiting/wake-subscriber';
import { heldOwner, RedlockQuorum } from './redlock-quorum-calls';
import type { RedlockNode } from './redlock-node';
import { describeVotes, judgeAttempt, retryDelayMs, validityMs, type NodeVote } from './redlock-quorum';

export interface RedlockSettings {
  readonly driftFactor: number;
  /** Window of the random pause after the first failed attempt (it then doubles, capped). */
  readonly retryJitterMs: number;
}

/**
 * How redlock waits: lines of its own (its locks live on other servers than the runtime's), and
 * a subscriber on every node, where every release publishes. A wake-up is only a hint: with every
 * node's message lost, waiters fall back to their randomised retries.
 */
export interface RedlockWaiting {
  readonly queue: LocalQueue;
  readonly wake: WakeSubscriber;
}

/** The same key on every node; the braces keep a resource's keys in one cluster slot. */
export function redlockKey(resource: string): string {
  return lockKeys(resource).lock;
}

/**
 * Redlock over N independent Redis nodes: a lock is held only while a majority of them hold this
 * owner's key, and only for the validity time left after the votes came in. No renewal: a holder
 * that outlives its validity sees its signal aborted. Within a process, waiters line up and only
 * the head asks the nodes; a holder hands the lock straight to the next in line (up to the
 * hand-off limit, or the hand-off window after the run's first; then it releases, and the release
 * wakes the heads of the other processes): within the first hundredth of the taker's lease the
 * taker holds under the run's owner value and validity, later when a majority swaps the key.
 */
export class RedlockStrategy implements LockStrategy {
  readonly name = 'redlock';
  private readonly quorum: RedlockQuorum;
  /** The lock keys held in this process (not reentrant: one hold each), with until when the hold is valid (performance.now). */
  private readonly holds = new Map<string, number>();

  constructor(
    nodes: readonly RedlockNode[],
    private readonly events: LockEventSink,
    private readonly settings: RedlockSettings,
    private readonly waiting: RedlockWaiting,
  ) {
    this.quorum = new RedlockQuorum(nodes);
  }

  async run<T>(resource: string, options: LockOptions, critical: (lock: HeldLock) => Promise<T>): Promise<T> {
    if (!Number.isInteger(options.leaseMs) || options.leaseMs <= 0) {
      throw new RangeError(`leaseMs ${options.leaseMs} is not a positive integer`);
    }
    const key = redlockKey(resource);
    // One owner for every attempt: a SET that lands after its attempt gave up is still ours to delete.
    const owner = randomUUID();
    const started = performance.now();
    const held = await this.acquire(key, resource, owner, options, started);
    const holder = held.owner;
    const acquiredAt = performance.now();
    const controller = new AbortController();
    const lose = (detail: string) => {
      if (controller.signal.aborted) return;
      controller.abort(new LockLostError(resource));
      this.holds.set(key, 0); // a lost hold never hands off before its verdict
      this.emit('lost', resource, holder, { detail });
    };
    let expiry: ReturnType<typeof setTimeout> | undefined;
    const holdUntil = (validUntil: number) => {
      clearTimeout(expiry);
      const validity = validUntil - performance.now();
      expiry = setTimeout(() => lose(`validity of ${Math.round(validity)} ms ran out`), Math.max(0, validity));
      this.holds.set(key, validUntil);
    };
    holdUntil(held.validUntil);
    this.waiting.queue.holdRegistered(key);
    // Handed over before the swap answered: its verdict ends our hold, or starts our own validity.
    let over = false;
    let confirmed = held.confirmation === undefined; // until then, no hand-off within the run
    void held.confirmation?.then((lost) => {
      if (over || controller.signal.aborted) return;
      if (lost) return lose(lost);
      confirmed = true;
      holdUntil(performance.now() + validityMs(options.leaseMs, Date.now() - held.sentAt!, this.settings.driftFactor));
    });
    try {
      return await critical({ strategy: this.name, resource, owner: holder, signal: controller.signal });
    } finally {
      over = true;
      clearTimeout(expiry);
      await this.release(key, resource, holder, acquiredAt, confirmed);
    }
  }

  /** Waits in the line, then attempts until one wins a majority in time or a holder here hands over. */
  private async acquire(key: string, resource: string, owner: string, options: LockOptions, started: number) {
    const wakeChannel = lockKeys(resource).wake;
    let attempts = 0;
    let votes: NodeVote[] = [];
    let won = { validityMs: 0, at: 0 };
    const attempt = async (): Promise<Attempt> => {
      attempts++;
      const attemptStart = performance.now();
      votes = await this.quorum.acquire(key, owner, options.leaseMs);
      const elapsed = performance.now() - attemptStart;
      const verdict = judgeAttempt(votes, options.leaseMs, elapsed, this.settings.driftFactor);
      if (verdict.acquired) {
        won = { validityMs: verdict.validityMs, at: performance.now() };
        return { acquired: true };
      }
      // A minority (or a late majority) is worth nothing and blocks the others: give it all back.
      await this.quorum.release(key, owner);
      const remaining = options.waitMs - (performance.now() - started);
      return { acquired: false, holderTtlMs: retryDelayMs(this.settings.retryJitterMs, attempts, remaining) };
    };
    const got = await acquireWithWait(this.waiting.queue, this.waiting.wake, {
      lineKey: key,
      wakeChannel,
      waitMs: options.waitMs,
      signal: options.signal,
      skipLine: false,
      attempt,
      ...(this.waiting.queue.handoffLimit > 0 && { handoff: { kind: this.name, owner, leaseMs: options.leaseMs } }),
      listeners: () => this.quorum.listeners(wakeChannel),
      heldHere: () => this.holds.has(key) || this.waiting.queue.isTaking(key),
    });
    const waitedMs = Math.round(performance.now() - started);
    if (got.acquired && !options.signal?.aborted) {
      const holder = heldOwner(got, owner); // the value it holds by, as its release and loss name it
      const detail = got.handedOff ? 'handed off' : undefined;
      this.emit('acquire', resource, holder, { durationMs: waitedMs, detail });
      if (!got.handedOff) return { owner, validUntil: won.at + won.validityMs };
      if (got.runOwner !== undefined) return { owner: holder, validUntil: got.validUntil! }; // within the run
      if (got.validUntil !== undefined) {
        return { owner: holder, validUntil: got.validUntil, confirmation: got.confirmation, sentAt: got.sentAt };
      }
      // Handed over once the swap answered: its lease began at most that long ago.
      const sinceSwap = Date.now() - (got.sentAt ?? Date.now());
      const validity = validityMs(options.leaseMs, sinceSwap, this.settings.driftFactor);
      return { owner: holder, validUntil: performance.now() + validity };
    }
    // Cancelled once in: let it go again, under the owner value it holds it by.
    if (got.acquired) await this.release(key, resource, heldOwner(got, owner), performance.now());
    const detail =
      got.acquired || got.aborted
        ? 'cancelled'
        : attempts === 0
          ? 'behind waiters of this process all the time'
          : `after ${attempts} attempts, last votes ${describeVotes(this.quorum.labels, votes)}`;
    this.emit('timeout', resource, owner, { durationMs: waitedMs, detail });
    if (got.acquired || got.aborted) throw new LockAbortedError(resource, { cause: options.signal?.reason });
    throw new LockTimeoutError(resource, waitedMs);
  }

  /** Hands the lock to the next in line here (within the run, or if a majority swaps it), else deletes it everywhere. */
  private async release(key: string, resource: string, owner: string, acquiredAt: number, confirmed = true) {
    let handed = false;
    let detail = 'handed off';
    try {
      const slot = this.waiting.queue.claimable(key, this.name);
      const validUntil = this.holds.get(key) ?? 0;
      handed =
        slot !== undefined &&
        (await this.quorum.handOff(slot, key, owner, this.settings.driftFactor, validUntil, confirmed));
      if (handed) this.waiting.queue.handedOff(key);
      else
        detail = `deleted on ${await this.quorum.release(key, owner, lockKeys(resource).wake)}/${this.quorum.size} nodes`;
    } finally {
      this.holds.delete(key);
      if (!handed) this.waiting.queue.runOver(key);
      this.waiting.queue.releasedHere(key);
    }
    this.emit('release', resource, owner, { durationMs: Math.round(performance.now() - acquiredAt), detail });
    if (handed) await takerFirst();
  }

  private emit(
    type: 'acquire' | 'release' | 'timeout' | 'lost',
    resource: string,
    owner: string,
    extra: { durationMs?: number; detail?: string },
  ): void {
    this.events.emit({ type, strategy: this.name, resource, owner, at: Date.now(), ...extra });
  }
}
