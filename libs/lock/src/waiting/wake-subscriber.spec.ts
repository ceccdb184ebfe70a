import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { WakeSubscriber } from './wake-subscriber';

/** A stand-in for the subscriber connection: records (un)subscriptions, delivers messages on demand. */
class FakeConnection extends EventEmitter {
  readonly calls: string[] = [];
  private confirm: (() => void)[] = [];
  status = 'ready';

  ssubscribe(name: string): Promise<void> {
    this.calls.push(`+${name}`);
    return new Promise((resolve) => this.confirm.push(resolve));
  }

  sunsubscribe(name: string): Promise<void> {
    this.calls.push(`-${name}`);
    return Promise.resolve();
  }

  confirmAll(): void {
    for (const confirm of this.confirm.splice(0)) confirm();
  }

  quit(): Promise<void> {
    return Promise.resolve();
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('WakeSubscriber', () => {
  let connection: FakeConnection;
  let wake: WakeSubscriber;
  beforeEach(() => {
    connection = new FakeConnection();
    wake = new WakeSubscriber(connection as unknown as Redis);
  });
  afterEach(() => wake.close());

  it('wakes a sleeper on a message of its channel, not of another, and counts the confirmed subscription as one', async () => {
    const listener = wake.listen('a');
    listener.mark();
    connection.confirmAll(); // an attempt made before this may have missed its message
    await listener.wait(5000);
    listener.mark();
    const woken = listener.wait(5000).then(() => 'woken');
    connection.emit('smessage', 'b', 'released');
    const other = await Promise.race([woken, new Promise((resolve) => setTimeout(() => resolve('still asleep'), 20))]);
    expect(other).toBe('still asleep');
    connection.emit('smessage', 'a', 'released');
    expect(await woken).toBe('woken');
    listener.close();
  });

  it('keeps a wake-up that lands between the attempt (mark) and the sleep', async () => {
    const listener = wake.listen('a');
    connection.confirmAll();
    await settle();
    listener.mark();
    connection.emit('smessage', 'a', 'released');
    const started = Date.now();
    await listener.wait(5000);
    expect(Date.now() - started).toBeLessThan(100);
    listener.close();
  });

  it('subscribes once per channel, and unsubscribes a second after the last listener left, unless one came back', async () => {
    const [one, two] = [wake.listen('a'), wake.listen('a')];
    one.close();
    two.close();
    const three = wake.listen('a'); // back within the linger: nothing sent
    three.close();
    expect(connection.calls).toEqual(['+a']);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(connection.calls).toEqual(['+a', '-a']);
  });

  it('ends a sleep on its timeout or on the signal', async () => {
    const listener = wake.listen('a');
    const controller = new AbortController();
    const started = Date.now();
    await listener.wait(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    const aborted = listener.wait(5000, controller.signal);
    controller.abort();
    await aborted;
    expect(Date.now() - started).toBeLessThan(1000);
    listener.close();
  });
});
