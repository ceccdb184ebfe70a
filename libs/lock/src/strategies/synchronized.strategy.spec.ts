import { noLockEvents } from '../lock-events';
import { LockAbortedError, LockTimeoutError } from '../lock.errors';
import { SynchronizedStrategy } from './synchronized.strategy';

describe('SynchronizedStrategy', () => {
  const options = { leaseMs: 1000, waitMs: 1000 };

  it('runs one section at a time per resource, in arrival order', async () => {
    const strategy = new SynchronizedStrategy({ events: noLockEvents });
    const order: string[] = [];
    let inside = 0;
    await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        strategy.run('r', options, async () => {
          expect(++inside).toBe(1);
          await new Promise((resolve) => setTimeout(resolve, 2));
          order.push(name);
          inside--;
        }),
      ),
    );
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('honours the signal: an aborted waiter leaves at once and never runs its section', async () => {
    const strategy = new SynchronizedStrategy({ events: noLockEvents });
    let release!: () => void;
    const holder = strategy.run('r', options, () => new Promise<void>((resolve) => (release = resolve)));
    const controller = new AbortController();
    let ran = false;
    const waiter = strategy.run('r', { ...options, signal: controller.signal }, () =>
      Promise.resolve(void (ran = true)),
    );
    controller.abort();
    await expect(waiter).rejects.toBeInstanceOf(LockAbortedError);
    const already = strategy.run('r', { ...options, signal: controller.signal }, () =>
      Promise.resolve(void (ran = true)),
    );
    await expect(already).rejects.toBeInstanceOf(LockAbortedError);
    release();
    await holder;
    expect(ran).toBe(false);
  });

  it('times out after waitMs', async () => {
    const strategy = new SynchronizedStrategy({ events: noLockEvents });
    let release!: () => void;
    const holder = strategy.run('r', options, () => new Promise<void>((resolve) => (release = resolve)));
    await expect(strategy.run('r', { leaseMs: 1000, waitMs: 20 }, () => Promise.resolve())).rejects.toBeInstanceOf(
      LockTimeoutError,
    );
    release();
    await holder;
  });
});
