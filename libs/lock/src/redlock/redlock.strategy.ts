import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LockEventSink } from '../lock-events';
import { lockKeys } from '../lock-keys';
import { LockLostError, LockTimeoutError } from '../lock.errors';
import type { HeldLock, LockOptions, LockStrategy } from '../lock-strategy';
import { acquireOnNode, releaseOnNode, type RedlockNode } from './redlock-node';
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
 * that outlives its validity sees its signal aborted.
 */
export class RedlockStrategy implements LockStrategy {
  readonly name = 'redlock';

  constructor(
    private readonly nodes: readonly RedlockNode[],
    private readonly events: LockEventSink,
    private readonly settings: RedlockSettings,
  ) {}

  async run<T>(resource: string, options: LockOptions, critical: (lock: HeldLock) => Promise<T>): Promise<T> {
    if (!Number.isInteger(options.leaseMs) || options.leaseMs <= 0) {
      throw new RangeError(`leaseMs ${options.leaseMs} is not a positive integer`);
    }
    const key = redlockKey(resource);
    // One owner for every attempt: a SET that lands after its attempt gave up is still ours to delete.
    const owner = randomUUID();
    const validity = await this.acquire(key, resource, owner, options);
    const acquiredAt = performance.now();
    const controller = new AbortController();
    const expiry = setTimeout(() => {
      controller.abort(new LockLostError(resource));
      this.emit('lost', resource, owner, { detail: `validity of ${Math.round(validity)} ms ran out` });
    }, validity);
    try {
      return await critical({ strategy: this.name, resource, owner, signal: controller.signal });
    } finally {
      clearTimeout(expiry);
      const released = await this.releaseAll(key, owner);
      this.emit('release', resource, owner, {
        durationMs: Math.round(performance.now() - acquiredAt),
        detail: `deleted on ${released}/${this.nodes.length} nodes`,
      });
    }
  }

  /** Attempts until one wins a majority in time; returns its validity, or throws LockTimeoutError. */
  private async acquire(key: string, resource: string, owner: string, options: LockOptions): Promise<number> {
    const started = performance.now();
    for (let attempt = 1; ; attempt++) {
      const attemptStart = performance.now();
      const votes = await Promise.all(this.nodes.map((node) => acquireOnNode(node, key, owner, options.leaseMs)));
      const verdict = judgeAttempt(votes, options.leaseMs, performance.now() - attemptStart, this.settings.driftFactor);
      if (verdict.acquired) {
        this.emit('acquire', resource, owner, { durationMs: Math.round(performance.now() - started) });
        return verdict.validityMs;
      }
      // A minority (or a late majority) is worth nothing and blocks the others: give it all back.
      await this.releaseAll(key, owner);
      const remaining = options.waitMs - (performance.now() - started);
      if (remaining <= 0) this.timeout(resource, owner, started, attempt, votes);
      await sleep(retryDelayMs(this.settings.retryJitterMs, attempt, remaining));
    }
  }

  private timeout(resource: string, owner: string, started: number, attempts: number, votes: NodeVote[]): never {
    const waitedMs = Math.round(performance.now() - started);
    const labels = this.nodes.map((node) => node.label);
    this.emit('timeout', resource, owner, {
      durationMs: waitedMs,
      detail: `after ${attempts} attempts, last votes ${describeVotes(labels, votes)}`,
    });
    throw new LockTimeoutError(resource, waitedMs);
  }

  /** Compare-and-delete on every node, reachable or not; returns how many deleted this owner's key. */
  private async releaseAll(key: string, owner: string): Promise<number> {
    const deleted = await Promise.all(this.nodes.map((node) => releaseOnNode(node, key, owner)));
    return deleted.filter(Boolean).length;
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
