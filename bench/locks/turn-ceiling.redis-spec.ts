import { Redis } from 'ioredis';
import type { TurnConfig } from './messages';
import { runTurns } from './turn-ceiling';

const redisUrl = process.env.REDIS_TEST_URL!;

// Two parts of the ring in this one process, on the real Redis: a third connection counts the
// turns passed, so the sections run per turn can be told from the total.
it('runs its sections per turn back to back before passing the turn, and counts each on the counter', async () => {
  const prefix = `spec:turns:${Date.now()}`;
  const sectionsPerTurn = 4;
  const watcher = new Redis(redisUrl);
  const data = new Redis(redisUrl);
  let passes = 0;
  watcher.on('smessage', () => (passes += 1));
  try {
    for (const index of [0, 1]) await watcher.ssubscribe(`${prefix}:turn:${index}`);
    let open!: (window: { startAt: number; endAt: number }) => void;
    const window = new Promise<{ startAt: number; endAt: number }>((resolve) => (open = resolve));
    const config = (processIndex: number): TurnConfig => ({
      kind: 'turns',
      redisUrl,
      processIndex,
      processes: 2,
      sectionsPerTurn,
      channelPrefix: `${prefix}:turn:`,
      counterKey: `${prefix}:counter`,
    });
    let ready = 0;
    const parts = [0, 1].map((index) =>
      runTurns(
        config(index),
        () => (ready += 1),
        () => window,
      ),
    );
    while (ready < 2) await new Promise((resolve) => setImmediate(resolve));
    const startAt = Date.now() + 20;
    open({ startAt, endAt: startAt + 300 });
    const reports = await Promise.all(parts);
    const sections = reports.reduce((sum, r) => sum + r.grantsPerWaiter[0], 0);
    expect(reports.map((r) => r.error)).toEqual([undefined, undefined]);
    expect(passes).toBeGreaterThan(2);
    // Every pass follows a whole turn; only the turn under way when the window closed ran short.
    expect(sections).toBeGreaterThanOrEqual(sectionsPerTurn * passes);
    expect(sections).toBeLessThan(sectionsPerTurn * (passes + 1));
    expect(Number(await data.get(`${prefix}:counter`))).toBe(sections);
  } finally {
    await data.del(`${prefix}:counter`);
    await Promise.all([watcher.quit(), data.quit()]);
  }
});
