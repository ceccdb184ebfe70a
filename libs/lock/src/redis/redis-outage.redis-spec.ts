import { RecordingSink, REDIS_STRATEGIES, uniqueResource, within } from '../../../../test/redis/lock-kit';
import { signalServer, startPrivateRedis, testPort, type RunningChild } from '../../../../test/redis/private-redis';
import { LockRuntime } from '../lock-runtime';
import { createLockStrategies } from '../lock-strategies';
import { LockUnavailableError } from '../lock.errors';
import type { LockStrategy } from '../lock-strategy';

// A Redis of this spec's own, killed and frozen for real. The library must fail fast with
// LockUnavailableError (the app's 503) and recover by itself when Redis is back.
const PORT = testPort(26604);
jest.setTimeout(30_000);

let server: RunningChild | undefined;
let runtime: LockRuntime;
let strategies: Map<string, LockStrategy>;

beforeAll(async () => {
  server = await startPrivateRedis(PORT);
  runtime = LockRuntime.connect({ redisUrl: `redis://127.0.0.1:${PORT}`, replicaId: 'api-1', commandTimeoutMs: 300 });
  strategies = new Map(createLockStrategies(runtime, new RecordingSink()).map((s) => [s.name, s]));
});
afterAll(async () => {
  await runtime.close();
  await server?.stop();
});

const once = (name: string) =>
  strategies
    .get(name)!
    .run(uniqueResource(`outage-${name}`), { leaseMs: 1000, waitMs: 1000 }, () => Promise.resolve('ran'));

/** Retries until Redis answers again (ioredis reconnects on its own; we only wait). */
async function untilItRunsAgain(name: string): Promise<void> {
  await within(
    (async () => {
      for (;;) {
        if ((await once(name).catch(() => 'failed')) === 'ran') return;
        await new Promise((r) => setTimeout(r, 50));
      }
    })(),
    10_000,
    'recovery after Redis came back',
  );
}

it('with Redis down, every strategy fails fast with LockUnavailableError, then recovers by itself', async () => {
  for (const name of REDIS_STRATEGIES) await expect(once(name)).resolves.toBe('ran');
  await server!.stop('SIGKILL');
  server = undefined;
  for (const name of REDIS_STRATEGIES) {
    const started = Date.now();
    const error = await once(name).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockUnavailableError);
    expect((error as LockUnavailableError).code).toBe('LOCK.UNAVAILABLE');
    expect((error as LockUnavailableError).cause).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeLessThan(500);
  }
  server = await startPrivateRedis(PORT);
  for (const name of REDIS_STRATEGIES) await untilItRunsAgain(name);
});

it('a hung Redis (frozen process) fails within the command timeout instead of hanging', async () => {
  await untilItRunsAgain('owner-checked');
  signalServer(server!, 'SIGSTOP');
  try {
    const started = Date.now();
    const error = await once('owner-checked').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockUnavailableError);
    expect(Date.now() - started).toBeLessThan(1000);
  } finally {
    signalServer(server!, 'SIGCONT');
  }
  await untilItRunsAgain('owner-checked');
});
