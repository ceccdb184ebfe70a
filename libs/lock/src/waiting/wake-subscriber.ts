import type { Redis } from 'ioredis';
import { pause } from './pause';

/** A channel of the subscriber connection, as its listeners share it. */
interface Channel {
  refs: number;
  wakeups: number;
  readonly sleepers: Set<() => void>;
  /** Set while nobody listens: unsubscribes when it fires. */
  linger?: ReturnType<typeof setTimeout>;
}

/**
 * How long a channel stays subscribed after its last listener left. A hot lock's next front then
 * finds it subscribed; and the connection is not left with no channel while a new SSUBSCRIBE is in
 * flight (ioredis then leaves subscriber mode on the SUNSUBSCRIBE's reply and drops the messages).
 */
const LINGER_MS = 1000;

function wake(channel: Channel): void {
  channel.wakeups += 1;
  for (const sleeper of [...channel.sleepers]) sleeper();
}

/**
 * The process's one subscriber connection for wake-ups (in subscriber mode it can do nothing
 * else). Wake-ups are shard channels (SSUBSCRIBE/SPUBLISH) carrying their lock's hash tag, so on a
 * Redis Cluster a wake-up stays on the lock's node. A channel is subscribed while someone
 * listens on it; a wake-up is only a hint, every sleep is bounded anyway.
 */
export class WakeSubscriber {
  private readonly channels = new Map<string, Channel>();

  constructor(private readonly redis: Redis) {
    redis.on('smessage', (name: string) => {
      const channel = this.channels.get(name);
      if (channel) wake(channel);
    });
  }

  /**
   * Listens on `name` until `close()`, subscribing if need be. It does not wait for the
   * subscription: its confirmation counts as a wake-up, so an attempt made before it (whose
   * release message may have gone unheard) is made again at once.
   */
  listen(name: string): WakeListener {
    const channel = this.channels.get(name) ?? this.open(name);
    clearTimeout(channel.linger);
    channel.linger = undefined;
    channel.refs += 1;
    return new WakeListener(channel, () => this.left(name, channel));
  }

  private open(name: string): Channel {
    const channel: Channel = { refs: 0, wakeups: 0, sleepers: new Set() };
    void this.redis.ssubscribe(name).then(
      () => wake(channel),
      // Refused (Redis away): forget the channel, so the next listener subscribes again.
      () => void (this.channels.get(name) === channel && this.channels.delete(name)),
    );
    this.channels.set(name, channel);
    return channel;
  }

  private left(name: string, channel: Channel): void {
    if ((channel.refs -= 1) > 0 || this.channels.get(name) !== channel) return;
    channel.linger = setTimeout(() => {
      if (channel.refs > 0 || this.channels.get(name) !== channel) return;
      this.channels.delete(name);
      this.redis.sunsubscribe(name).catch(() => undefined);
    }, LINGER_MS);
    channel.linger.unref();
  }

  async close(): Promise<void> {
    for (const channel of this.channels.values()) clearTimeout(channel.linger);
    this.channels.clear();
    // Not ready (its server down), it would hold QUIT through every retry: dropped at once.
    if (this.redis.status !== 'ready') return this.redis.disconnect();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** One waiter's view of a channel: the wake-ups since its last `mark`. */
export class WakeListener {
  private seen: number;
  private closed = false;

  constructor(
    private readonly channel: Channel,
    private readonly onClose: () => void,
  ) {
    this.seen = channel.wakeups;
  }

  /** Remember the wake-ups so far: call just before an attempt, so one that lands meanwhile is not lost. */
  mark(): void {
    this.seen = this.channel.wakeups;
  }

  /** Sleeps until a wake-up since the last mark, `ms`, or `signal`'s abort, whichever first. */
  wait(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.channel.wakeups > this.seen) return Promise.resolve();
    return pause(ms, signal, (wake) => {
      this.channel.sleepers.add(wake);
      return () => this.channel.sleepers.delete(wake);
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
  }
}
