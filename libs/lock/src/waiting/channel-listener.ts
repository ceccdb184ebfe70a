/** A channel of the process's subscriber connection, as its listeners share it. */
export interface Channel {
  refs: number;
  wakeups: number;
  readonly sleepers: Set<() => void>;
  /** By owner: the message, and which wake-up of the channel brought it. */
  readonly messages: Map<string, { readonly message: string; readonly wakeup: number }>;
  /** Settles once SSUBSCRIBE is confirmed (or given up on). */
  readonly subscribed: Promise<void>;
  /** Set when `subscribed` has settled: a listener then needs no wait. */
  settled: boolean;
  readonly recent: string[];
  /**
   * Set when the last listener leaves and kept while others come and go (it looks again when it
   * fires): unsubscribes once the channel has been idle `lingerMs`.
   */
  linger?: ReturnType<typeof setTimeout>;
  /** When the last listener left (`performance.now()`: a clock step cannot stretch the linger). */
  idleSince: number;
}

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

/** One contender's view of a channel: the wake-ups since it began (or last marked) and its own messages. */
export class ChannelListener implements WakeListener {
  private seen: number;
  /** The channel's wake-ups when this listener began: a message from before is another wait's. */
  private readonly since: number;
  private closed = false;

  constructor(
    private readonly state: Channel,
    private readonly onClose: (linger: boolean) => void,
  ) {
    this.seen = state.wakeups;
    this.since = state.wakeups;
  }

  mark(): void {
    this.seen = this.state.wakeups;
  }

  wait(timeoutMs: number, interrupt?: Promise<unknown>): Promise<'woken' | 'timeout'> {
    const state = this.state;
    if (state.wakeups > this.seen) return Promise.resolve('woken');
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
  }

  take(owner: string): string | undefined {
    const kept = this.state.messages.get(owner);
    if (!kept || kept.wakeup <= this.since) return undefined;
    this.state.messages.delete(owner);
    return kept.message;
  }

  close(linger = true): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose(linger);
  }
}
