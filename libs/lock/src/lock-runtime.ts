import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { HeldLocks, type Hold } from './held-locks';
import { lockKeys, wakeChannel, type LockKeys } from './lock-keys';
import { HANDOFF_LIMIT, type LockRuntimeOptions, type WaitForReplicas } from './lock-runtime-options';
import { createLockRedis, createWakeRedis, defaultLockRedisSettings, followTopology } from './redis/redis-clients';
import { onlineReplicas } from './redis/online-replicas';
import { asCluster } from './redis/redis-target';
import { Renewer, type Renewal } from './renewal/renewer';
import { Lines, type Taker, type Turn } from './waiting/line';
import { WakeSubscriber, type WakeListener } from './waiting/wake-subscriber';

/** How long one look at the replicas (for health checks) stays good. */
const REPLICA_CHECK_MS = 250;

/**
 * What the Redis strategies of one process share: the command connection, the subscriber
 * connection, the lines, the one renewer and the registry of held locks. The connections stay
 * inside: a strategy runs its verbs, registers its holds, waits and renews through the methods below.
 */
export class LockRuntime {
  /** This process's lines, one per lock it waits for or holds. */
  private readonly lines: Lines;
  private readonly renewer = new Renewer();
  private readonly held = new HeldLocks();
  private readonly wake: WakeSubscriber;
  /** Names this process in the fair queues and its wake-up channels (hex). */
  readonly processTag = randomBytes(8).toString('hex');
  private closed = false;
  private readonly closers: (() => Promise<void>)[] = [];
  private replicaCheck?: { readonly atMs: number; readonly online: Promise<number> };

  constructor(
    private readonly redis: Redis,
    wakeRedis: Redis,
    readonly replicaId: string,
    readonly waitForReplicas?: WaitForReplicas,
    handoffLimit = HANDOFF_LIMIT,
  ) {
    this.wake = new WakeSubscriber(wakeRedis);
    followTopology(redis, wakeRedis);
    this.lines = new Lines(handoffLimit);
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
      options.handoffLimit,
    );
  }

  /** Runs one verb (a function of the command connection: a script, a command) on this runtime's Redis. */
  call<T>(verb: (redis: Redis) => Promise<T>): Promise<T> {
    return verb(this.redis);
  }

  /** Waits for a turn in the lock's line until `deadline` (performance.now()); see `Lines.join`. */
  joinLine(lockKey: string, taker: Taker, deadline: number, signal?: AbortSignal): Promise<Turn> {
    return this.lines.join(lockKey, taker, deadline, signal);
  }

  /** The front let go of the lock (released it, or gave up): the next waiter of its line is the front. */
  passFront(lockKey: string): void {
    this.lines.pass(lockKey);
  }

  /** How many wait behind the lock's front in this process. */
  waiting(lockKey: string): number {
    return this.lines.waiting(lockKey);
  }

  /** The front saw the holder's lease just now (ms), or none: waiters that time out in its line report it. */
  noteHolderTtl(lockKey: string, ms: number | undefined): void {
    this.lines.noteHolderTtl(lockKey, ms);
  }

  /** The next waiter a holder of `strategy` may hand the lock to now; `handedTo` or `putBack` must follow. */
  takeNext(lockKey: string, strategy: string): Taker | undefined {
    return this.lines.takeNext(lockKey, strategy);
  }

  /** Redis confirmed the hand-off (`handoff`) to `taker`, or refused it (undefined: back first in line). */
  settleHandoff(lockKey: string, taker: Taker, handoff: (Turn & { by: 'handoff' }) | undefined): void {
    if (handoff) this.lines.handedTo(lockKey, taker, handoff);
    else this.lines.putBack(lockKey, taker);
  }

  /** Listens for this process's wake-ups on `keys`' lock. */
  listen(keys: LockKeys): WakeListener {
    return this.wake.listen(wakeChannel(keys, this.processTag));
  }

  /** A lock is held by one `run` of this process until `unhold`. */
  hold(hold: Hold): void {
    this.held.add(hold);
  }

  unhold(hold: Hold): void {
    this.held.delete(hold);
  }

  /** This process's holds of `lockKey` by `owner` (a reentrant flow has one per nesting). */
  holdsOf(lockKey: string, owner: string): Hold[] {
    return this.held.of(lockKey, owner);
  }

  /** How many locks this process holds now. */
  get heldCount(): number {
    return this.held.size;
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

  /**
   * Under WAIT, how many replicas the primary (on a cluster, each master) has online against the
   * number WAIT asks for: fewer, and no lock can be had. Undefined without WAIT. One question to
   * Redis serves every caller for REPLICA_CHECK_MS; a failed one counts as no replica.
   */
  async replicasForWait(): Promise<{ readonly online: number; readonly wanted: number } | undefined> {
    if (!this.waitForReplicas) return undefined;
    const now = Date.now();
    if (!this.replicaCheck || now - this.replicaCheck.atMs >= REPLICA_CHECK_MS) {
      this.replicaCheck = { atMs: now, online: onlineReplicas(this.redis).catch(() => 0) };
    }
    return { online: await this.replicaCheck.online, wanted: this.waitForReplicas.replicas };
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
