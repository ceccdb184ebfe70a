import { Renewer, type Renewal } from './renewer';

function renewal(id: string, intervalMs: number, renew: () => Promise<boolean>) {
  const calls = { renewed: 0, lost: 0 };
  const entry: Renewal = {
    id,
    intervalMs,
    renew,
    onRenewed: () => calls.renewed++,
    onLost: () => calls.lost++,
  };
  return { entry, calls };
}

/** A renewal due every 10 ms and one every second, both always finding the lock theirs. */
function fastAndSlow() {
  const ours = () => Promise.resolve(true);
  return { fast: renewal('fast', 10, ours), slow: renewal('slow', 1000, ours) };
}

describe('Renewer', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.restoreAllMocks();
    jest.useRealTimers();
  });

  it('renews every interval with one timer for all locks', async () => {
    const renewer = new Renewer();
    const a = renewal('a', 100, () => Promise.resolve(true));
    const b = renewal('b', 40, () => Promise.resolve(true));
    renewer.add(a.entry);
    renewer.add(b.entry);
    await jest.advanceTimersByTimeAsync(200);
    expect(a.calls.renewed).toBe(2);
    expect(b.calls.renewed).toBe(5);
    expect(jest.getTimerCount()).toBe(1);
    await renewer.stop();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('sets no timer per hold while one is armed early enough, and stops once nothing is held', async () => {
    const renewer = new Renewer();
    const a = renewal('a', 100, () => Promise.resolve(true));
    const setTimer = jest.spyOn(global, 'setTimeout');
    renewer.add(a.entry);
    for (let i = 0; i < 50; i += 1) {
      await jest.advanceTimersByTimeAsync(1); // each hold is due later than the armed timer
      const b = renewal(`b${i}`, 100, () => Promise.resolve(true));
      renewer.add(b.entry);
      await renewer.remove(b.entry.id);
    }
    expect(setTimer).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(50);
    expect(a.calls.renewed).toBe(1);
    await renewer.remove('a');
    expect(jest.getTimerCount()).toBe(1); // left armed
    await jest.advanceTimersByTimeAsync(100);
    expect(jest.getTimerCount()).toBe(0); // it fired, found nothing due, and stopped
    expect(a.calls.renewed).toBe(1);
    const c = renewal('c', 10, () => Promise.resolve(true));
    renewer.add(c.entry);
    await jest.advanceTimersByTimeAsync(10);
    expect(c.calls.renewed).toBe(1);
    await renewer.stop();
  });

  it('a timer left armed early re-arms for the renewals left', async () => {
    const renewer = new Renewer();
    const { fast, slow } = fastAndSlow();
    renewer.add(fast.entry);
    renewer.add(slow.entry);
    await renewer.remove('fast');
    await jest.advanceTimersByTimeAsync(999);
    expect(slow.calls.renewed).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(slow.calls.renewed).toBe(1);
    expect(fast.calls.renewed).toBe(0);
    await renewer.stop();
  });

  it('arms earlier for a lock due before the armed timer', async () => {
    const renewer = new Renewer();
    const { fast, slow } = fastAndSlow();
    renewer.add(slow.entry);
    renewer.add(fast.entry);
    await jest.advanceTimersByTimeAsync(10);
    expect(fast.calls.renewed).toBe(1);
    expect(slow.calls.renewed).toBe(0);
    await renewer.stop();
  });

  it('drops a lock whose renewal finds it gone, and reports it once', async () => {
    const renewer = new Renewer();
    const a = renewal('a', 10, () => Promise.resolve(false));
    renewer.add(a.entry);
    await jest.advanceTimersByTimeAsync(100);
    expect(a.calls.lost).toBe(1);
    expect(renewer.has('a')).toBe(false);
  });

  it('remove waits for the renewal in flight, and nothing renews after it', async () => {
    const renewer = new Renewer();
    let finish!: (ours: boolean) => void;
    let started = 0;
    const a = renewal('a', 10, () => {
      started++;
      return new Promise<boolean>((resolve) => (finish = resolve));
    });
    renewer.add(a.entry);
    await jest.advanceTimersByTimeAsync(10);
    expect(started).toBe(1);
    let removed = false;
    const removal = renewer.remove('a').then(() => (removed = true));
    await Promise.resolve();
    expect(removed).toBe(false);
    finish(false);
    await removal;
    expect(a.calls.lost).toBe(0); // released meanwhile: the release reports, not the renewer
    await jest.advanceTimersByTimeAsync(100);
    expect(started).toBe(1);
  });

  it('a failing renewal (Redis away) is retried next interval, not reported lost', async () => {
    const renewer = new Renewer();
    let calls = 0;
    const a = renewal('a', 10, () => {
      calls++;
      if (calls === 1) return Promise.reject(new Error('ECONNREFUSED'));
      return Promise.resolve(true);
    });
    renewer.add(a.entry);
    await jest.advanceTimersByTimeAsync(25);
    expect(a.calls.lost).toBe(0);
    expect(a.calls.renewed).toBe(1);
    await renewer.stop();
  });
});
