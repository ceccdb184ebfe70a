import { Redis } from 'ioredis';
import { deferred, testRedisUrl } from '../../test/redis/lock-kit';
import type { TurnConfig } from './messages';
import { KEEP_TURN } from './turn-ceiling';
import { runTurns } from './turn-ring';

const redisUrl = testRedisUrl();

/**
 * Plays a ring of two parts in this one process: waits until both are ready (a part that fails
 * first fails the test with its own error), runs `beforeOpen`, then opens a 300 ms window that counts
 * from the start (no settle: a timer may fire a millisecond early, so not `startAt` itself).
 */
async function ringOfTwo(config: (processIndex: number) => TurnConfig, beforeOpen?: () => Promise<unknown>) {
  const window = deferred<{ startAt: number; countFrom: number; endAt: number }>();
  const ready = [0, 1].map(() => deferred());
  const parts = Promise.all(
    [0, 1].map((index) =>
      runTurns(
        config(index),
        () => ready[index].resolve(),
        () => window.promise,
      ),
    ),
  );
  await Promise.race([Promise.all(ready.map((r) => r.promise)), parts]);
  await beforeOpen?.();
  const startAt = Date.now() + 20;
  window.resolve({ startAt, countFrom: 0, endAt: startAt + 300 });
  return parts;
}

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
    const reports = await ringOfTwo((processIndex) => ({
      kind: 'turns',
      redisUrl,
      processIndex,
      processes: 2,
      sectionsPerTurn,
      channelPrefix: `${prefix}:turn:`,
      counterKey: `${prefix}:counter`,
    }));
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
    // The window opens once the part is ready (after its warm-up), as the pool opens it, after a
    // settle of 100 ms whose sections go to a key of their own.
    const window = () => ({ startAt: Date.now() + 20, countFrom: Date.now() + 120, endAt: Date.now() + 320 });
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
    expect(Number(await data.get(`${prefix}:counter:settle`))).toBeGreaterThan(10);
  } finally {
    await data.del(`${prefix}:counter`, `${prefix}:counter:settle`);
    await Promise.all([watcher.quit(), data.quit()]);
  }
});

// The hand-off ring on the real Redis, seen through MONITOR: what each turn sends, in the order
// Redis ran it. The claim and the section's GET go on different connections, so either may run first.
it('the hand-off ring claims the lock before each section, then hands it to the next process with the claim lease and wakes it', async () => {
  const prefix = `spec:handoff:${Date.now()}`;
  const lockKey = `${prefix}:lock`;
  const counterKey = `${prefix}:counter`;
  const channel = (index: number) => `${prefix}:turn:${index}`;
  const base = new Redis(redisUrl);
  const data = new Redis(redisUrl);
  let monitor: Redis | undefined;
  const trace: string[] = [];
  const end = deferred();
  try {
    const config = (processIndex: number): TurnConfig => ({
      kind: 'turns',
      redisUrl,
      processIndex,
      processes: 2,
      sectionsPerTurn: 1,
      channelPrefix: `${prefix}:turn:`,
      counterKey,
      handOff: { lockKey, leaseMs: 10_000, claimMs: 1000 },
    });
    // Watched from the window on only: MONITOR slows the Redis every parallel spec shares.
    const reports = await ringOfTwo(config, async () => {
      monitor = await base.monitor(); // a connection of its own
      monitor.on('monitor', (_time: string, args: string[]) => {
        const [command, key, ...rest] = [args[0].toLowerCase(), ...args.slice(1)];
        if (command === 'pexpire' && key === lockKey) trace.push(`claim ${rest[0]}`);
        else if (command === 'get' && key === counterKey) trace.push('get');
        else if (command === 'set' && key === counterKey) trace.push('set');
        else if (command === 'set' && key === lockKey) trace.push(`lock ${rest.join(' ')}`);
        else if (command === 'spublish' && key.startsWith(prefix)) {
          if (rest[0] === 'end') end.resolve();
          else trace.push(`wake ${key} ${rest[0]}`);
        }
      });
    });
    await data.spublish(channel(0), 'end'); // Redis runs it after every call the parts made
    await end.promise;
    expect(reports.map((r) => r.error)).toEqual([undefined, undefined]);
    // Cut into turns, each ending with its wake-up; process 0 starts, so turn i goes to process (i + 1) % 2.
    const turns: string[][] = [[]];
    for (const call of trace) {
      turns[turns.length - 1].push(call);
      if (call.startsWith('wake ')) turns.push([]);
    }
    const last = turns.pop()!; // the window may close after a claim, before its section
    expect(['', 'claim 10000']).toContain(last.join(', '));
    expect(turns.length).toBeGreaterThan(3);
    const wrong = turns.flatMap((turn, i) => {
      const to = channel((i + 1) % 2);
      const handOn = [`lock ${to} PX 1000`, `wake ${to} turn`];
      const before = turn.slice(0, -2);
      const ok =
        turn.slice(-2).join() === handOn.join() &&
        [...before].sort().join() === ['claim 10000', 'get', 'set'].join() &&
        before.indexOf('get') < before.indexOf('set') &&
        before.indexOf('get') < before.indexOf('claim 10000'); // claimed once the section has begun, as ours is
      return ok ? [] : [`turn ${i}: ${turn.join(', ')}`];
    });
    expect(wrong.slice(0, 3)).toEqual([]);
    expect(Number(await data.get(counterKey))).toBe(reports.reduce((sum, r) => sum + r.grantsPerWaiter[0], 0));
  } finally {
    await data.del(counterKey, lockKey);
    monitor?.disconnect();
    await Promise.all([base.quit(), data.quit()]);
  }
});
