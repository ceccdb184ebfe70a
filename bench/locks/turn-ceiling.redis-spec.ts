import { Redis } from 'ioredis';
import { testRedisUrl } from '../../test/redis/lock-kit';
import type { TurnConfig } from './messages';
import { KEEP_TURN } from './turn-ceiling';
import { runTurns } from './turn-ring';

const redisUrl = testRedisUrl();

// Two parts of the ring in this one process, on the real Redis: a watching connection counts the
// turns passed, so the sections run per turn can be told from the total.
it('runs its sections per turn back to back before passing the turn, and counts each on the counter', async () => {
  const prefix = `spec:turns:${Date.now()}`;
  const sectionsPerTurn = 4;
  const watcher = new Redis(redisUrl);
  const data = new Redis(redisUrl);
  let passes = 0;
  let ended!: () => void;
  const end = new Promise<void>((resolve) => (ended = resolve));
  watcher.on('smessage', (_channel: string, message: string) => (message === 'end' ? ended() : (passes += 1)));
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
    const ready = [0, 1].map(() => {
      let resolve!: () => void;
      return { promise: new Promise<void>((r) => (resolve = r)), resolve: () => resolve() };
    });
    const parts = Promise.all([0, 1].map((index) => runTurns(config(index), ready[index].resolve, () => window)));
    // A part that fails before it is ready fails the test with its own error.
    await Promise.race([Promise.all(ready.map((r) => r.promise)), parts]);
    const startAt = Date.now() + 20;
    open({ startAt, endAt: startAt + 300 });
    const reports = await parts;
    // Published after every pass the parts made, so the watcher has counted them all once it arrives.
    await data.spublish(`${prefix}:turn:0`, 'end');
    await end;
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

it('the section alone: a ring of one process runs its sections back to back for the whole window, never passing the turn', async () => {
  const prefix = `spec:alone:${Date.now()}`;
  const watcher = new Redis(redisUrl);
  const data = new Redis(redisUrl);
  let passes = 0;
  watcher.on('smessage', () => (passes += 1));
  try {
    await watcher.ssubscribe(`${prefix}:turn:0`);
    const config: TurnConfig = {
      kind: 'turns',
      redisUrl,
      processIndex: 0,
      processes: 1,
      sectionsPerTurn: KEEP_TURN,
      channelPrefix: `${prefix}:turn:`,
      counterKey: `${prefix}:counter`,
    };
    // The window opens once the part is ready (after its warm-up), as the pool opens it.
    const window = () => ({ startAt: Date.now() + 20, endAt: Date.now() + 220 });
    const report = await runTurns(
      config,
      () => undefined,
      () => Promise.resolve(window()),
    );
    // Published after the part ended, so any pass it made would have reached the watcher first.
    const ended = new Promise<void>((resolve) => watcher.once('smessage', () => resolve()));
    await data.spublish(`${prefix}:turn:0`, 'end');
    await ended;
    expect(report.error).toBeUndefined();
    expect(passes).toBe(1); // only the spec's own 'end'
    expect(report.grantsPerWaiter[0]).toBeGreaterThan(10);
    expect(Number(await data.get(`${prefix}:counter`))).toBe(report.grantsPerWaiter[0]);
  } finally {
    await data.del(`${prefix}:counter`);
    await Promise.all([watcher.quit(), data.quit()]);
  }
});
