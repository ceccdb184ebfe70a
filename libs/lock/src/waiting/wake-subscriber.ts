import type { Redis } from 'ioredis';
import { ChannelListener, type Channel, type WakeListener } from './channel-listener';
import { untilFirst } from './until-first';

export type { WakeListener } from './channel-listener';

/** Addressed messages kept per channel for a waiter that has not looked yet; older ones are dropped. */
const MAX_KEPT_MESSAGES = 64;
/** With several connections, the last messages per channel: the same release heard again is no new wake-up. */
const MAX_RECENT_MESSAGES = 8;

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
  listen(name: string, withinMs = Infinity): Promise<WakeListener> {
    const state = this.channels.get(name) ?? this.open(name);
    state.refs++;
    const listener = new ChannelListener(state, (linger) => this.left(name, state, linger));
    // A hot lock's channel is subscribed already: no timer, no race, no extra turn of the loop.
    if (state.settled) return Promise.resolve(listener);
    return untilFirst(withinMs, state.subscribed).then(() => listener);
  }

  /** A listener of `name` is done; `linger` keeps the channel subscribed a moment for the next one. */
  private left(name: string, state: Channel, linger: boolean): void {
    if (--state.refs > 0) return;
    if (!linger) return this.unsubscribe(name, state);
    state.idleSince = performance.now();
    // One timer per idle spell, not per listener: a listener that comes and goes meanwhile only
    // moves `idleSince`, and the timer looks again when it fires.
    const check = () => {
      state.linger = undefined;
      if (state.refs > 0) return;
      const idleMs = performance.now() - state.idleSince;
      if (idleMs >= this.lingerMs) return this.unsubscribe(name, state);
      state.linger = setTimeout(check, this.lingerMs - idleMs);
      state.linger.unref?.();
    };
    if (!state.linger) {
      state.linger = setTimeout(check, this.lingerMs);
      state.linger.unref?.();
    }
  }

  private open(name: string): Channel {
    const subscribed = this.subscribe(name, () => {
      // Every connection refused (Redis away, or not allowed), even after the wait: forget the
      // channel, so the next listener subscribes again instead of sleeping on a channel nobody
      // hears. Listeners of this state keep their bounded sleeps; leaving it unsubscribes nothing.
      if (this.channels.get(name) === state) this.forget(name, state);
    });
    const state: Channel = {
      refs: 0,
      wakeups: 0,
      sleepers: new Set(),
      messages: new Map(),
      subscribed,
      settled: false,
      recent: [],
      idleSince: 0,
    };
    void subscribed.then(() => (state.settled = true));
    this.channels.set(name, state);
    return state;
  }

  private unsubscribe(name: string, state: Channel): void {
    if (this.channels.get(name) !== state || state.refs > 0) return;
    this.forget(name, state);
    for (const connection of this.connections) connection.sunsubscribe(name).catch(() => undefined);
  }

  /** Drops the channel's state, and its linger timer with it (close() would no longer see it). */
  private forget(name: string, state: Channel): void {
    if (state.linger) clearTimeout(state.linger);
    state.linger = undefined;
    this.channels.delete(name);
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

  /** Settles when one connection confirms or the wait runs out; `refused` runs if every one refuses, whenever. */
  private async subscribe(name: string, refused: () => void): Promise<void> {
    // A subscription that does not come through (Redis away) is not fatal: sleeps are bounded
    // by the holder's TTL anyway, so a missed wake-up costs time, never a hang. Subscribed once
    // one connection confirms; the others join as they come.
    const any = Promise.any(this.connections.map((c) => c.ssubscribe(name))).catch(refused);
    await untilFirst(this.subscribeTimeoutMs, any);
  }
}
