import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { RunningChild } from '../../../../tools/stack/servers/child';
import { RecordingSink, uniqueResource, within } from '../../../../test/redis/lock-kit';
import { holdInside } from '../../../../test/redis/replica-fixtures';
import { startPrivateRedis, testPort } from '../../../../test/redis/private-redis';
import { lockKeys } from '../lock-keys';
import { LockRuntime } from '../lock-runtime';
import { createLockStrategies } from '../lock-strategies';
import { LockLostError } from '../lock.errors';

// A taker within owner-checked's run is checked in Redis when its section first asks for its
// signal. When that check cannot answer, the taker is told it may have lost the lock: a holder
// never goes on unchecked. A Redis of this spec's own, since it pauses every command.
const PORT = testPort(26606);
const COMMAND_TIMEOUT_MS = 300;

let server: RunningChild;
let probe: Redis;

beforeAll(async () => {
  server = await startPrivateRedis(PORT);
  probe = new Redis(PORT, '127.0.0.1');
});
afterAll(async () => {
  await probe.quit();
  await server.stop();
});

it("a taker whose run check cannot reach Redis loses its signal: 'the check failed'", async () => {
  const events = new RecordingSink();
  const redisUrl = `redis://127.0.0.1:${PORT}`;
  const runtime = LockRuntime.connect({ redisUrl, replicaId: 'api-1', commandTimeoutMs: COMMAND_TIMEOUT_MS });
  const strategy = createLockStrategies(runtime, events).find((s) => s.name === 'owner-checked')!;
  const resource = uniqueResource('shared-run-check');
  const options = { leaseMs: 60_000, waitMs: 5000 };
  try {
    let runOwner = '';
    const first = await holdInside(strategy, resource, options, (held) => (runOwner = held.owner));
    const taker = strategy.run(resource, options, async (held) => {
      // Every command now waits ten times the command timeout: the check's GET times out.
      await probe.call('CLIENT', 'PAUSE', String(COMMAND_TIMEOUT_MS * 10), 'ALL');
      const signal = held.signal; // the first look: the check goes out now
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      return { owner: held.owner, reason: signal.reason as unknown };
    });
    while (!runtime.handOffSlot(lockKeys(resource).lock, 'owner-checked')) await sleep(1);
    first.leave();
    await first.run;
    const seen = await within(taker, 5000, "the taker's signal aborted");
    expect(seen.owner).toBe(runOwner); // handed on within the run: no script, no check until asked
    expect(seen.reason).toBeInstanceOf(LockLostError);
    expect(events.of('lost', resource).map((e) => e.detail)).toEqual([
      expect.stringMatching(/^the check failed: .*timed? ?out/i),
    ]);
  } finally {
    await runtime.close();
  }
});
