import { inSomeFlow } from '../flow-context';
import type { Hold } from '../held-locks';
import type { LockEventSink, LockEventType } from '../lock-events';
import { lockKeys, type LockKeys } from '../lock-keys';
import type { LockRuntime } from '../lock-runtime';
import type { HeldLock, LockOptions, LockStrategy, LockStrategyDeps } from '../lock-strategy';
import { waitInRedis, type TakenInRedis } from './front-in-redis';
import type { LockCall } from './lock-call';
import type { StrategyParts } from './strategy-parts';
import { letGo } from './lock-release';
import { LockReports } from './lock-reports';
import { StrategyVerbs, type LockVerbs } from './lock-verbs';

export interface RedisLockDeps extends LockStrategyDeps {
  readonly runtime: LockRuntime;
}

/**
 * How a call got the lock. `inLine`: as its line's front or by a hand-off, so its release passes
 * the line on; not so a nested acquire, or a single attempt made without waiting.
 */
interface Got {
  readonly fenceToken?: number;
  readonly viaHandoff: boolean;
  readonly inLine: boolean;
}

/**
 * The one waiting design, for every Redis strategy: a waiter joins its process's line for the
 * lock; the line's front waits in Redis (`front-in-redis.ts`: the fair queue, woken on the
 * process's channel, or retries); the holder hands the lock to the next waiter of its line, or
 * releases it (`lock-release.ts`). A strategy supplies its owner value, its verbs, and what it
 * does once held and before release.
 */
export abstract class RedisLockStrategy implements LockStrategy {
  abstract readonly name: string;
  protected readonly runtime: LockRuntime;
  private readonly events: LockEventSink;
  /** How the lock is taken and given back in Redis. */
  protected abstract readonly verbs: LockVerbs;
  /** A flow that holds the lock may take it again; only these kinds enter a flow. */
  protected readonly reentrant: boolean = false;
  private made?: StrategyParts;

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
    // The wait budget is fixed here, once: every wait of the call ends at this deadline.
    const started = performance.now();
    const at = { started, deadline: started + options.waitMs };
    const held = () => this.runHeld(resource, options, at, critical);
    return this.reentrant ? inSomeFlow(held) : held();
  }

  private async runHeld<T>(
    resource: string,
    options: LockOptions,
    at: { readonly started: number; readonly deadline: number },
    critical: (lock: HeldLock) => Promise<T>,
  ): Promise<T> {
    const keys = lockKeys(resource);
    const call: LockCall = { keys, owner: this.ownerValue(), leaseMs: options.leaseMs, signal: options.signal, ...at };
    // A nested acquire by a flow that holds the lock skips the line: its flow is the line's front already.
    const nested = this.reentrant && this.runtime.holdsOf(keys.lock, call.owner).length > 0;
    const got: Got = nested
      ? { ...(await waitInRedis(this.parts, call, 'unqueued')), inLine: false }
      : await this.acquire(call);
    const acquiredAt = performance.now();
    this.parts.reports.acquired(call, acquiredAt, got.viaHandoff ? 'handed off' : got.fenceToken?.toString());
    let released: Promise<void> | undefined;
    const hold: Hold = {
      strategy: this.name,
      lockKey: keys.lock,
      owner: call.owner,
      lost: new AbortController(),
      release: () => (released ??= letGo(this.parts, hold, call, got.inLine, acquiredAt)),
    };
    this.runtime.hold(hold);
    if (call.signal?.aborted) {
      await hold.release();
      throw this.parts.reports.aborted(call);
    }
    this.onHeld(hold, keys, call.leaseMs);
    const fenceToken = got.fenceToken === undefined ? undefined : Promise.resolve(got.fenceToken);
    try {
      return await critical({ strategy: this.name, resource, owner: call.owner, signal: hold.lost.signal, fenceToken });
    } finally {
      await hold.release();
    }
  }

  /** Waits in the line, then (as its front) in Redis; throws when the lock was not had. */
  private async acquire(call: LockCall): Promise<Got> {
    const taker = { strategy: this.name, owner: call.owner, leaseMs: call.leaseMs };
    const turn = await this.runtime.joinLine(call.keys.lock, taker, call.deadline, call.signal);
    switch (turn.by) {
      case 'handoff':
        return { fenceToken: turn.fenceToken, viaHandoff: true, inLine: true };
      case 'abort':
        throw this.parts.reports.aborted(call);
      case 'timeout':
        throw this.parts.reports.timedOut(call, turn.holderTtlMs);
      case 'once':
        return { ...(await waitInRedis(this.parts, call, 'newcomer')), inLine: false };
    }
    // A wait of 0 makes one attempt and queues nothing.
    const inQueue = this.parts.redis.queued && call.deadline > call.started;
    let taken: TakenInRedis;
    try {
      taken = await waitInRedis(this.parts, call, inQueue ? 'queued' : 'unqueued');
    } catch (error) {
      // The front gave up: off the fair queue (nothing left behind), and the next waiter is the front.
      if (inQueue) await this.parts.redis.leaveQueue(call.keys).catch(() => undefined);
      this.runtime.passFront(call.keys.lock);
      throw error;
    }
    return { ...taken, inLine: true };
  }

  /** The verbs and reports, made on first use: a subclass's fields are set after this constructor. */
  private get parts(): StrategyParts {
    return (this.made ??= {
      name: this.name,
      runtime: this.runtime,
      redis: new StrategyVerbs(this.runtime, this.verbs),
      reports: new LockReports(this.name, this.events),
      beforeRelease: (hold) => this.beforeRelease(hold),
    });
  }

  protected emit(
    type: LockEventType,
    resource: string,
    owner: string,
    extra: { durationMs?: number; detail?: string } = {},
  ): void {
    this.parts.reports.emit(type, resource, owner, extra);
  }
}
