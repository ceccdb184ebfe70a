import { untilFirst } from './until-first';

describe('untilFirst', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const settled = (promise: Promise<void>) => {
    let done = false;
    void promise.then(() => (done = true));
    return () => done;
  };

  it('resolves after ms when nothing settles, and leaves no timer behind on an event', async () => {
    const timedOut = settled(untilFirst(100, new Promise(() => undefined)));
    await jest.advanceTimersByTimeAsync(99);
    expect(timedOut()).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(timedOut()).toBe(true);
    await untilFirst(100, Promise.resolve());
    expect(jest.getTimerCount()).toBe(0);
  });

  it('sets no timer for an infinite bound: only an event ends it', async () => {
    let fire!: () => void;
    const waiting = untilFirst(Infinity, new Promise<void>((r) => (fire = r)));
    const waited = settled(waiting);
    expect(jest.getTimerCount()).toBe(0);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(waited()).toBe(false);
    fire();
    await expect(waiting).resolves.toBeUndefined();
  });
});
