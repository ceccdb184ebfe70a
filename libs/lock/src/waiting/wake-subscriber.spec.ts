import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { WakeSubscriber } from './wake-subscriber';

/** Just enough of a subscriber connection to drive the bookkeeping: messages are emitted by hand. */
class FakeSubscriberConnection extends EventEmitter {
  readonly subscribes: string[] = [];
  readonly unsubscribes: string[] = [];
  ssubscribe(channel: string) {
    this.subscribes.push(channel);
    return Promise.resolve(1);
  }
  sunsubscribe(channel: string) {
    this.unsubscribes.push(channel);
    return Promise.resolve(0);
  }
}

describe('WakeSubscriber', () => {
  let connection: FakeSubscriberConnection;
  let subscriber: WakeSubscriber;

  beforeEach(() => {
    jest.useFakeTimers();
    connection = new FakeSubscriberConnection();
    subscriber = new WakeSubscriber(connection as unknown as Redis, 1000, 500);
  });
  afterEach(() => jest.useRealTimers());

  it('waits for a subscription at most the time given; the channel is heard once it comes through', async () => {
    let confirm!: () => void;
    connection.ssubscribe = (channel: string) => {
      connection.subscribes.push(channel);
      return new Promise<number>((resolve) => (confirm = () => resolve(1)));
    };
    let listening = false;
    const listened = subscriber.listen('lock:{a}:wake', 50).then((l) => ((listening = true), l));
    await jest.advanceTimersByTimeAsync(49);
    expect(listening).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    const listener = await listened;
    confirm();
    const woke = listener.wait(10_000);
    connection.emit('smessage', 'lock:{a}:wake', 'released');
    await expect(woke).resolves.toBe('woken');
  });

  it('a message on the channel wakes a sleeper before its timeout', async () => {
    const listener = await subscriber.listen('lock:{a}:wake');
    const woke = listener.wait(10_000);
    connection.emit('smessage', 'lock:{a}:wake', 'released');
    await expect(woke).resolves.toBe('woken');
  });

  it('a message on another channel does not; the timeout ends the sleep', async () => {
    const listener = await subscriber.listen('lock:{a}:wake');
    const woke = listener.wait(100);
    connection.emit('smessage', 'lock:{b}:wake', 'released');
    jest.advanceTimersByTime(100);
    await expect(woke).resolves.toBe('timeout');
  });

  it('a wake-up between the attempt (mark) and the sleep is not lost', async () => {
    const listener = await subscriber.listen('lock:{a}:wake');
    listener.mark();
    connection.emit('smessage', 'lock:{a}:wake', 'released'); // the release raced our attempt
    await expect(listener.wait(10_000)).resolves.toBe('woken');
    listener.mark();
    const next = listener.wait(50);
    jest.advanceTimersByTime(50);
    await expect(next).resolves.toBe('timeout');
  });

  it('takes only a message that came since the listener began, not one kept from an earlier wait of the same owner', async () => {
    const channel = 'lock:{a}:wake:p1';
    const first = await subscriber.listen(channel);
    connection.emit('smessage', channel, 'flow-1'); // a release handed flow-1 the lock
    expect(first.take('flow-1')).toBe('flow-1');
    connection.emit('smessage', channel, 'flow-1'); // another, as flow-1's wait gave up: not taken
    first.close(); // the channel lingers, the message with it
    const second = await subscriber.listen(channel); // flow-1 waits again, same owner value
    expect(connection.subscribes).toEqual([channel]);
    expect(second.take('flow-1')).toBeUndefined();
    connection.emit('smessage', channel, 'flow-1 42');
    expect(second.take('flow-1')).toBe('flow-1 42');
    expect(second.take('flow-1')).toBeUndefined(); // consumed
  });

  it('subscribes once per channel, keeps it a moment after the last listener, then unsubscribes', async () => {
    const first = await subscriber.listen('lock:{a}:wake');
    const second = await subscriber.listen('lock:{a}:wake');
    expect(connection.subscribes).toEqual(['lock:{a}:wake']);
    first.close();
    second.close();
    jest.advanceTimersByTime(400);
    const third = await subscriber.listen('lock:{a}:wake'); // within the linger: no new SUBSCRIBE
    expect(connection.subscribes).toHaveLength(1);
    third.close();
    jest.advanceTimersByTime(500);
    expect(connection.unsubscribes).toEqual(['lock:{a}:wake']);
  });

  it('sets one linger timer per idle spell, however many listeners come and go meanwhile', async () => {
    (await subscriber.listen('lock:{a}:wake')).close();
    const setTimer = jest.spyOn(global, 'setTimeout');
    jest.advanceTimersByTime(300);
    for (let i = 0; i < 5; i++) (await subscriber.listen('lock:{a}:wake')).close(); // a hot lock's heads
    expect(setTimer).not.toHaveBeenCalled();
    jest.advanceTimersByTime(499); // the first timer fires at 500, finds 200 ms of idling, looks again at 800
    expect(connection.unsubscribes).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(connection.unsubscribes).toEqual(['lock:{a}:wake']);
    setTimer.mockRestore();
  });

  it("without linger, the last listener's close unsubscribes at once: an idle process must not look like a waiting one", async () => {
    const first = await subscriber.listen('lock:{a}:wake');
    const second = await subscriber.listen('lock:{a}:wake');
    first.close(false);
    expect(connection.unsubscribes).toEqual([]); // another listener still waits
    second.close(false);
    expect(connection.unsubscribes).toEqual(['lock:{a}:wake']);
    await subscriber.listen('lock:{a}:wake');
    expect(connection.subscribes).toHaveLength(2);
  });

  it('a refusal that comes after the wait for the subscription still makes the next listener subscribe again', async () => {
    let refuse!: () => void;
    let refusing = true; // the first SSUBSCRIBE only
    connection.ssubscribe = (channel: string) => {
      connection.subscribes.push(channel);
      if (!refusing) return Promise.resolve(1);
      refusing = false;
      return new Promise<number>((_, reject) => (refuse = () => reject(new Error('NOPERM'))));
    };
    const listened = subscriber.listen('lock:{a}:wake');
    await jest.advanceTimersByTimeAsync(1000); // the subscribe wait runs out, the answer still to come
    (await listened).close(); // lingers
    refuse();
    await jest.advanceTimersByTimeAsync(0);
    expect(jest.getTimerCount()).toBe(0); // the forgotten channel's linger went with it
    await subscriber.listen('lock:{a}:wake');
    expect(connection.subscribes).toEqual(['lock:{a}:wake', 'lock:{a}:wake']);
  });

  it('with several connections, listens on all: a message on any wakes, the same one heard again does not', async () => {
    const other = new FakeSubscriberConnection();
    const both = new WakeSubscriber([connection, other] as unknown as Redis[], 1000, 500);
    const listener = await both.listen('lock:{a}:wake');
    expect([connection.subscribes, other.subscribes]).toEqual([['lock:{a}:wake'], ['lock:{a}:wake']]);
    listener.mark();
    other.emit('smessage', 'lock:{a}:wake', 'owner-1');
    await expect(listener.wait(10_000)).resolves.toBe('woken');
    listener.mark();
    connection.emit('smessage', 'lock:{a}:wake', 'owner-1'); // the same release, from another node
    const quiet = listener.wait(100);
    await jest.advanceTimersByTimeAsync(100);
    await expect(quiet).resolves.toBe('timeout');
    connection.emit('smessage', 'lock:{a}:wake', 'owner-2');
    await expect(listener.wait(10_000)).resolves.toBe('woken');
    listener.close(false);
    expect([connection.unsubscribes, other.unsubscribes]).toEqual([['lock:{a}:wake'], ['lock:{a}:wake']]);
  });

  it('with several connections, never takes an empty message for a repeat', async () => {
    const other = new FakeSubscriberConnection();
    const both = new WakeSubscriber([connection, other] as unknown as Redis[], 1000, 500);
    const listener = await both.listen('lock:{a}:wake');
    for (const from of [connection, other, connection]) {
      listener.mark();
      from.emit('smessage', 'lock:{a}:wake', '');
      await expect(listener.wait(10_000)).resolves.toBe('woken');
    }
    listener.close(false);
  });
});
