import { until, WATCH_MS } from './send-at';

describe('until', () => {
  it('resolves at the aim, not before, after sleeping most of the wait', async () => {
    const start = performance.now();
    const now = () => performance.now() - start;
    const turns: number[] = [];
    await until(WATCH_MS + 30, () => {
      turns.push(now());
      return now();
    });
    const resolvedAt = now();
    expect(resolvedAt).toBeGreaterThanOrEqual(WATCH_MS + 30);
    // The first reading is before the sleep, the second after it: the timer covered all but the watch
    // (a timer may fire up to a couple of milliseconds early on performance.now()'s finer clock).
    expect(turns[1]).toBeGreaterThanOrEqual(27);
  });

  it('resolves at once when the aim has passed', async () => {
    let readings = 0;
    await until(100, () => {
      readings += 1;
      return 200;
    });
    expect(readings).toBe(2);
  });
});
