import { Test } from '@nestjs/testing';
import { RecordingSink, testRedisUrl, uniqueResource, within } from '../../../test/redis/lock-kit';
import { LockModule } from './lock.module';
import { LockRegistry } from './lock-registry';
import { LockRuntime } from './lock-runtime';

// The module as the app wires it: forRootAsync, strategies looked up by name, closed on shutdown.
it('registers every strategy by its contract name, runs them, and closes its connections on shutdown', async () => {
  const events = new RecordingSink();
  const moduleRef = await Test.createTestingModule({
    imports: [
      LockModule.forRootAsync({ useFactory: () => ({ redisUrl: testRedisUrl(), replicaId: 'api-1', events }) }),
    ],
  }).compile();
  const app = await moduleRef.init();
  const registry = app.get(LockRegistry);
  const runtime = app.get(LockRuntime);
  expect(registry.names().sort()).toEqual(
    ['fenced', 'none', 'owner-checked', 'reentrant', 'set-nx-px', 'setnx', 'synchronized', 'watchdog'].sort(),
  );
  for (const name of registry.names()) {
    const resource = uniqueResource(`module-${name}`);
    await expect(
      registry.get(name)!.run(resource, { leaseMs: 1000, waitMs: 1000 }, (lock) => Promise.resolve(lock.resource)),
    ).resolves.toBe(resource);
  }
  expect(events.of('acquire').length).toBeGreaterThanOrEqual(7);
  const ended = runtime.call((redis) => new Promise((resolve) => redis.once('end', resolve)));
  await app.close();
  await within(ended, 2000, 'the lock connection closing');
});

it('refuses options without a Redis URL or replica id', async () => {
  const compile = Test.createTestingModule({
    imports: [LockModule.forRootAsync({ useFactory: () => ({ redisUrl: '', replicaId: 'api-1' }) })],
  }).compile();
  await expect(compile).rejects.toThrow(/redisUrl is required/);
});

it('refuses a hand-off limit that is not a whole number, at least zero', async () => {
  for (const handoffLimit of [-1, 2.5]) {
    const compile = Test.createTestingModule({
      imports: [
        LockModule.forRootAsync({
          useFactory: () => ({ redisUrl: 'redis://127.0.0.1:1', replicaId: 'api-1', handoffLimit }),
        }),
      ],
    }).compile();
    await expect(compile).rejects.toThrow(/handoffLimit must be an integer >= 0/);
  }
});
