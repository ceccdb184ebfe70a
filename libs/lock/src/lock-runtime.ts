import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { HeldLocks, type Hold } from './held-locks';
import type { LockRuntimeOptions, LockWaitMode, WaitForReplicas } from './lock-runtime-options';
import { lockKeys, waiterWakeChannel, type LockKeys } from './lock-keys';
import { createLockRedis, createWakeRedis, defaultLockRedisSettings, followTopology } from './redis/redis-clients';
import { asCluster } from './redis/redis-target';
import { RecentMap } from './recent-map';
import { Renewer, type Renewal } from './renewal/renewer';
import type { Attempt } from './verbs/attempt';
import { acquireWithWait, type WaitPlan } from './waiting/acquire-with-wait';
import type { HandoffSlot } from './waiting/handoff-slot';
import type { EntryOffer } from './waiting/entry-offers';
import { LocalQueue } from './waiting/local-queue';
import type { QueuePlan } from './waiting/queue-plan';
import { acquireInQueue } from './waiting/queue-wait';
import { WakeSubscriber } from './waiting/wake-subscriber';

/**
 * What the Redis strategies of one process share: the command connection, the subscriber
 * connection, the local lines, the one renewer and the registry of held locks. They stay inside:
 * a strategy runs its verbs, registers its holds, waits, hands off and renews through the narrow
 * methods below, so no caller can reach past them.
 */
export class LockRuntime {
  private readonly queue: LocalQueue;
  private readonly renewer = new Renewer();
  private readonly held = new HeldLocks();
  private readonly wake: WakeSubscriber;
  /** Names this process's wake-up channels in the lock queues (hex: never a `|`). */
  readonly processTag = randomBytes(8).toString('hex');
  /** This process's wake-up channel per resource: built once for a hot lock. */
  private readonly wakeChannels = new RecentMap(256, (resource) =>
    waiterWakeChannel(lockKeys(resource), this.processTag),
  );
  private closed = false;
  private readonly closers: (() => Promise<void>)[] = [];

  constructor(
    private readonly redis: Redis,
    wakeRedis: Redis,
    readonly replicaId: string,
    readonly waitForReplicas?: WaitForReplicas,
    handoff: { readonly limit?: number; readonly windowMs?: number } = {},
    readonly waitMode: LockWaitMode = 'queue',
  ) {
    this.wake = new WakeSubscriber(wakeRedis);
    followTopology(redis, wakeRedis);
    this.queue = new LocalQueue(handoff.limit, handoff.windowMs);
  }

  static connect(options: LockRuntimeOptions): LockRuntime {
    const commandTimeoutMs = Math.max(
      options.commandTimeoutMs ?? defaultLockRedisSettings.commandTimeoutMs,
      options.waitForReplicas ? options.waitForReplicas.timeoutMs + 1000 : 0,
    );
    const settings = { ...defaultLockRedisSettings, commandTimeoutMs };
    return new LockRuntime(
      createLockRedis(options.redisTarget ?? options.redisUrl, settings),
      createWakeRedis(options.redisTarget ?? options.redisUrl, settings),
      options.replicaId,
      options.waitForReplicas,
      { limit: options.handoffLimit, windowMs: options.handoffWindowMs },
      options.waitMode,
    );
  }

  /** Runs one verb (a function of the command connection: a script, a command) on this runtime's Redis. */
  call<T>(verb: (redis: Redis) => Promise<T>): Promise<T> {
    return verb(this.redis);
  }

  /** A lock is held by one `run` of this process until `unhold` (the line's head then sees it held). */
  hold(hold: Hold): void {
    this.held.add(hold);
    this.queue.holdRegistered(hold.lockKey);
  }

  unhold(hold: Hold): void {
    this.held.delete(hold);
  }

  /** A holder of this process released `lockKey` for real, not by hand-off: with no hold of it left here, its run is over. */
  releasedForReal(lockKey: string): void {
    if (!this.held.has(lockKey)) this.queue.runOver(lockKey);
  }

  /** This process's holds of `lockKey` by `owner` (a reentrant flow has one per nesting). */
  holdsOf(lockKey: string, owner: string): Hold[] {
    return this.held.of(lockKey, owner);
  }

  /** Whether some flow of this process holds `lockKey`. */
  holdsHere(lockKey: string): boolean {
    return this.held.has(lockKey) || this.queue.isTaking(lockKey);
  }

  /** The wake-up channel of this process's waiters on a lock (queue wait mode). */
  wakeChannel(keys: LockKeys): string {
    return this.wakeChannels.get(keys.resource);
  }

  /** How many locks this process holds now. */
  get heldCount(): number {
    return this.held.size;
  }

  /** Acquire in the fair Redis queue (queue wait mode), in this process's local line. */
  waitInQueue(plan: QueuePlan): Promise<Attempt> {
    return acquireInQueue(this.queue, this.wake, plan);
  }

  /** The entry the head of `lockKey`'s line offers a releasing holder of `kind`, to queue in its release. */
  takeEntryOffer(lockKey: string, kind: string): EntryOffer | undefined {
    return this.queue.offers.take(lockKey, kind);
  }

  /** Acquire on the earlier path: attempts, woken by every release (pubsub wait mode). */
  waitForWakeUp(plan: WaitPlan): Promise<Attempt> {
    return acquireWithWait(this.queue, this.wake, plan);
  }

  /** Consecutive local hand-offs allowed before a real release; 0: hand-offs are off. */
  get handoffLimit(): number {
    return this.queue.handoffLimit;
  }

  /** The head of `lockKey`'s local line, open to a hand-off from a holder of `kind`, if it may take one. */
  handOffSlot(lockKey: string, kind: string): HandoffSlot | undefined {
    return this.queue.claimable(lockKey, kind);
  }

  /** A holder handed `lockKey` to the head of its local line. */
  handedOff(lockKey: string): void {
    this.queue.handedOff(lockKey);
  }

  /** A holder of this process let go of `lockKey` (released, handed off, or failed). */
  releasedHere(lockKey: string): void {
    this.queue.releasedHere(lockKey);
  }

  /** Keep a held lock's lease alive on the process's one renewer. */
  renew(renewal: Renewal): void {
    this.renewer.add(renewal);
  }

  isRenewing(id: string): boolean {
    return this.renewer.has(id);
  }

  /** Stops renewing `id`; resolves once no renewal of it is in flight. */
  stopRenewing(id: string): Promise<void> {
    return this.renewer.remove(id);
  }

  /** Whether the lock connection answers now (it reconnects on its own schedule after a failover). */
  async ping(): Promise<boolean> {
    // A cluster's PING may reach a dead master until ioredis refreshes its slots: ask the client's state.
    if (asCluster(this.redis)) return this.redis.status === 'ready';
    return (await this.redis.ping().catch(() => undefined)) === 'PONG';
  }

  /** Whether `resource`'s lock key exists on this runtime's Redis (what a failover kept, say). */
  async lockExists(resource: string): Promise<boolean> {
    return (await this.redis.exists(lockKeys(resource).lock)) === 1;
  }

  /** Releases every lock this process holds (graceful shutdown); returns how many. */
  async releaseAll(): Promise<number> {
    const holds = this.held.all();
    await Promise.all(holds.map((hold) => hold.release().catch(() => undefined)));
    return holds.length;
  }

  /** Something else to close with the runtime (e.g. the redlock strategy's own connections). */
  closeWith(closer: () => Promise<void>): void {
    this.closers.push(closer);
  }

  /** Stops the renewer first (no renewal after this), then closes every connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.renewer.stop();
    await Promise.all(this.closers.map((close) => close().catch(() => undefined)));
    await this.wake.close();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
