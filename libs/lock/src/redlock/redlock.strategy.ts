import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { LockEventSink } from '../lock-events';
import { lockKeys } from '../lock-keys';
import { LockAbortedError, LockLostError, LockTimeoutError } from '../lock.errors';
import type { HeldLock, LockOptions, LockStrategy } from '../lock-strategy';
import type { Attempt } from '../verbs/attempt';
import { waitAsFront } from '../waiting/front-wait';
import type { Lines } from '../waiting/line';
import { RedlockQuorum } from './redlock-quorum-calls';
import type { RedlockNode } from './redlock-node';
import { describeVotes, judgeAttempt, retryDelayMs, type NodeVote } from './redlock-quorum';

export interface RedlockSettings {
  readonly driftFactor: number;
  /** Window of the random pause after the first failed attempt (it then doubles, capped). */
  readonly retryJitterMs: number;
}

/** The same key on every node; the braces keep a resource's keys in one cluster slot. */
export function redlockKey(resource: string): string {
  return lockKeys(resource).lock;
}

/**
 * Redlock over N independent Redis nodes: a lock is held only while a majority of them hold this
 * owner's key, and only for the validity time left after the votes came in. No renewal: a holder
 * that outlives its validity sees its signal aborted. It waits as every strategy does, in a line
 * per lock in its process, whose front retries with a randomised backoff (there is no one Redis
 * to keep a fair queue in); a holder hands the lock to the next in line when a majority swaps the
 * key, at most `handoffLimit` times in a row.
 */
export class RedlockStrategy implements LockStrategy {
  readonly name = 'redlock';
  private readonly quorum: RedlockQuorum;

  constructor(
    nodes: readonly RedlockNode[],
    private readonly events: LockEventSink,
    private readonly settings: RedlockSettings,
    private readonly lines: Lines,
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
    const held = await this.acquire(key, resource, owner, options, { started, deadline: started + options.waitMs });
    const acquiredAt = performance.now();
    const detail = held.viaHandoff ? 'handed off' : undefined;
    this.emit('acquire', resource, owner, { durationMs: Math.round(acquiredAt - started), detail });
    const controller = new AbortController();
    const validity = held.validUntil - performance.now();
    const expiry = setTimeout(
      () => {
        controller.abort(new LockLostError(resource));
        this.emit('lost', resource, owner, { detail: `validity of ${Math.round(validity)} ms ran out` });
      },
      Math.max(0, validity),
    );
    try {
      if (options.signal?.aborted) throw this.cancelled(resource, owner, started, options.signal);
      return await critical({ strategy: this.name, resource, owner, signal: controller.signal });
    } finally {
      clearTimeout(expiry);
      await this.letGo(key, resource, owner, acquiredAt, { inLine: held.inLine, lost: controller.signal.aborted });
    }
  }

  /**
   * Waits in the line, then (as its front) attempts until one wins a majority by the call's
   * deadline. `inLine`: its release passes the line on (not so a single attempt made without waiting).
   */
  private async acquire(
    key: string,
    resource: string,
    owner: string,
    options: LockOptions,
    { started, deadline }: { readonly started: number; readonly deadline: number },
  ): Promise<{ validUntil: number; viaHandoff: boolean; inLine: boolean }> {
    const taker = { strategy: this.name, owner, leaseMs: options.leaseMs };
    const turn = await this.lines.join(key, taker, deadline, options.signal);
    if (turn.by === 'handoff') return { validUntil: turn.validUntil!, viaHandoff: true, inLine: true };
    if (turn.by === 'abort') throw this.cancelled(resource, owner, started, options.signal);
    if (turn.by === 'timeout') throw this.timedOut(resource, owner, started, 'behind waiters of this process');
    const inLine = turn.by === 'front';
    let attempts = 0;
    let votes: NodeVote[] = [];
    let validUntil = 0;
    const attempt = async (): Promise<Attempt> => {
      attempts++;
      const attemptStart = performance.now();
      votes = await this.quorum.acquire(key, owner, options.leaseMs);
      const elapsed = performance.now() - attemptStart;
      const verdict = judgeAttempt(votes, options.leaseMs, elapsed, this.settings.driftFactor);
      if (verdict.acquired) {
        validUntil = performance.now() + verdict.validityMs;
        return { acquired: true };
      }
      // A minority (or a late majority) is worth nothing and blocks the others: give it all back.
      await this.quorum.release(key, owner);
      return { acquired: false, why: 'no-majority' };
    };
    const got = await waitAsFront({
      deadline,
      signal: options.signal,
      attempt,
      pauseMs: (_, tries) => retryDelayMs(this.settings.retryJitterMs, tries, Infinity),
    });
    if (got.acquired && !options.signal?.aborted) return { validUntil, viaHandoff: false, inLine };
    if (got.acquired) await this.quorum.release(key, owner);
    if (inLine) this.lines.pass(key);
    if (options.signal?.aborted) throw this.cancelled(resource, owner, started, options.signal);
    throw this.timedOut(
      resource,
      owner,
      started,
      `after ${attempts} attempts, last votes ${describeVotes(this.quorum.labels, votes)}`,
    );
  }

  /**
   * Hands the lock to the next in line here if a majority swaps it, else deletes it everywhere. A
   * lock had outside the line (`inLine` false) only deletes, and leaves the line as it is.
   */
  private async letGo(
    key: string,
    resource: string,
    owner: string,
    acquiredAt: number,
    { inLine, lost }: { readonly inLine: boolean; readonly lost: boolean },
  ) {
    let handed = false;
    let detail = 'handed off';
    try {
      handed = inLine && !lost && (await this.handoff(key, owner));
      if (!handed) detail = `deleted on ${await this.quorum.release(key, owner)}/${this.quorum.size} nodes`;
    } finally {
      if (inLine && !handed) this.lines.pass(key);
    }
    this.emit('release', resource, owner, { durationMs: Math.round(performance.now() - acquiredAt), detail });
  }

  private async handoff(key: string, owner: string): Promise<boolean> {
    const taker = this.lines.takeNext(key, this.name);
    if (!taker) return false;
    let validUntil: number | undefined;
    try {
      validUntil = await this.quorum.handoff(key, owner, taker, this.settings.driftFactor);
    } finally {
      if (validUntil !== undefined) this.lines.handedTo(key, taker, { by: 'handoff', validUntil });
      else this.lines.putBack(key, taker);
    }
    return validUntil !== undefined;
  }

  private timedOut(resource: string, owner: string, started: number, detail: string): LockTimeoutError {
    const waitedMs = Math.round(performance.now() - started);
    this.emit('timeout', resource, owner, { durationMs: waitedMs, detail });
    return new LockTimeoutError(resource, waitedMs);
  }

  private cancelled(resource: string, owner: string, started: number, signal?: AbortSignal): LockAbortedError {
    this.emit('timeout', resource, owner, { durationMs: Math.round(performance.now() - started), detail: 'cancelled' });
    return new LockAbortedError(resource, { cause: signal?.reason });
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
