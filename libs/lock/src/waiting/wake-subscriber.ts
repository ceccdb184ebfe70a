import type { Redis } from 'ioredis';
import { untilFirst } from './until-first';

/** One channel's listener, held by one contender while it waits. */
export interface WakeListener {
  /** Remember the wake-ups seen so far: call just before an acquire attempt. */
  mark(): void;
  /** Resolves on a wake-up since the last mark, after `timeoutMs`, or when `interrupt` settles. */
  wait(timeoutMs: number, interrupt?: Promise<unknown>): Promise<'woken' | 'timeout'>;
  /** Done listening; `linger` keeps the channel subscribed a moment for the next listener. */
  close(linger?: boolean): void;
  /**
   * The message addressed to `owner` (its first word), if one came since this listener began: a
   * queue release handed the lock to that waiter. Consumed by the call. One that came before is
   * another wait's (a reentrant flow keeps its owner value from one wait to the next).
   */
  take(owner: string): string | undefined;
}

/** Addressed messages kept per channel for a waiter that has not looked yet; older ones are dropped. */
const MAX_KEPT_MESSAGES = 64;
/** With several connections, the last messages per channel: the same release heard again is no new wake-up. */
const MAX_RECENT_MESSAGES = 8;

interface Channel {
  refs: number;
  wakeups: number;
  readonly sleepers: Set<() => void>;
  /** By owner: the message, and which wake-up of the channel brought it. */
  readonly messages: Map<string, { readonly message: string; readonly wakeup: number }>;
  /** Settles once SSUBSCRIBE is confirmed (or given up on). */
  readonly subscribed: Promise<void>;
  readonly recent: string[];
  linger?: ReturnType<typeof setTimeout>;
}

/**
 * The process's single subscriber connection, shared by every waiting contender. Wake-ups are
 * shard channels (SSUBSCRIBE/SPUBLISH, Redis 7): the channel carries its lock's hash tag, so on a
 * Redis Cluster a wake-up stays on the lock's own node instead of crossing every node's bus. A
 * channel stays subscribed while someone listens on it and a moment after (a hot lock's next head
 * then needs no new SSUBSCRIBE round trip); each message wakes every sleeper on that channel.
 * Given several connections (redlock: one per node, where every release publishes), it listens on
 * all of them, so a node down costs no wake-up; the same message heard on several counts once.
 */
export class WakeSubscriber {
  private readonly channels = new Map<string, Channel>();
  private readonly connections: readonly Redis[];

  constructor(
    redis: Redis | readonly Redis[],
    /** How long to wait for SSUBSCRIBE to be confirmed before falling back to TTL-bounded sleeps. */
    private readonly subscribeTimeoutMs = 1000,
    /** How long an unused channel stays subscribed. */
    private readonly lingerMs = 1000,
  ) {
    this.connections = ([] as Redis[]).concat(redis);
    for (const connection of this.connections) {
      connection.on('smessage', (channel: string, message: string) => this.deliver(channel, message));
    }
  }

  private deliver(channel: string, message: string): void {
    const state = this.channels.get(channel);
    if (!state) return;
    // An empty message (from a release that names no owner) is never taken for a repeat.
    if (this.connections.length > 1 && message !== '') {
      if (state.recent.includes(message)) return;
      if (state.recent.push(message) > MAX_RECENT_MESSAGES) state.recent.shift();
    }
    state.wakeups++;
    state.messages.set(message.split(' ', 1)[0], { message, wakeup: state.wakeups });
    if (state.messages.size > MAX_KEPT_MESSAGES) state.messages.delete(state.messages.keys().next().value!);
    for (const wake of [...state.sleepers]) wake();
  }

  /** Whether `name` is subscribed (or being subscribed) already: listening on it costs no round trip. */
  isListening(name: string): boolean {
    return this.channels.has(name);
  }

  /**
   * Listens on `name`, subscribing if need be. Waits for the subscription at most `withinMs` (a
   * waiter's time left): one that comes through later still delivers, and sleeps are bounded anyway.
   */
  async listen(name: string, withinMs = Infinity): Promise<WakeListener> {
    let channel = this.channels.get(name);
    if (!channel) {
      const subscribed = this.subscribe(name);
      channel = { refs: 0, wakeups: 0, sleepers: new Set(), messages: new Map(), subscribed, recent: [] };
      this.channels.set(name, channel);
    }
    const state = channel;
    if (state.linger) clearTimeout(state.linger);
    state.linger = undefined;
    state.refs++;
    let seen = state.wakeups;
    const since = seen;
    await untilFirst(withinMs, state.subscribed);
    let closed = false;
    return {
      mark: () => {
        seen = state.wakeups;
      },
      wait: (timeoutMs, interrupt) => {
        if (state.wakeups > seen) return Promise.resolve('woken');
        return new Promise((resolve) => {
          const wake = () => finish('woken');
          const timer = setTimeout(() => finish('timeout'), Math.max(0, timeoutMs));
          function finish(how: 'woken' | 'timeout') {
            clearTimeout(timer);
            state.sleepers.delete(wake);
            resolve(how);
          }
          state.sleepers.add(wake);
          interrupt?.then(wake, wake);
        });
      },
      take: (owner) => {
        const kept = state.messages.get(owner);
        if (!kept || kept.wakeup <= since) return undefined;
        state.messages.delete(owner);
        return kept.message;
      },
      close: (linger = true) => {
        if (closed) return;
        closed = true;
        if (--state.refs > 0) return;
        const unsubscribe = () => {
          if (this.channels.get(name) !== state || state.refs > 0) return;
          this.channels.delete(name);
          for (const connection of this.connections) connection.sunsubscribe(name).catch(() => undefined);
        };
        if (!linger) return unsubscribe();
        state.linger = setTimeout(unsubscribe, this.lingerMs);
        state.linger.unref?.();
      },
    };
  }

  async close(): Promise<void> {
    for (const channel of this.channels.values()) if (channel.linger) clearTimeout(channel.linger);
    this.channels.clear();
    // A connection not ready (its server down) would hold QUIT in its offline queue through every
    // retry: it is dropped at once instead.
    await Promise.all(
      this.connections.map(async (c) => {
        if (c.status !== 'ready') return c.disconnect();
        await c.quit().catch(() => c.disconnect());
      }),
    );
  }

  private async subscribe(name: string): Promise<void> {
    // A subscription that does not come through (Redis away) is not fatal: sleeps are bounded
    // by the holder's TTL anyway, so a missed wake-up costs time, never a hang. Subscribed once
    // one connection confirms; the others join as they come.
    const any = Promise.any(this.connections.map((c) => c.ssubscribe(name))).catch(() => undefined);
    await untilFirst(this.subscribeTimeoutMs, any);
  }
}
