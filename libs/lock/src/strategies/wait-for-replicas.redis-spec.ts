import type { Redis } from 'ioredis';
import { RecordingSink, uniqueResource } from '../../../../test/redis/lock-kit';
import {
  signalServer,
  startPrivateRedis,
  testPort,
  untilReplicaLinked,
  type RunningChild,
} from '../../../../test/redis/private-redis';
import { LockRuntime } from '../lock-runtime';
import { createLockStrategies } from '../lock-strategies';
import { lockKeys } from '../lock-keys';
import { LockTimeoutError } from '../lock.errors';
import type { LockStrategy } from '../lock-strategy';
import { Redis as Client } from 'ioredis';

// A primary and a replica of this spec's own; the replica is frozen with SIGSTOP to play the
// moment before a failover, when the lock has not reached it.
const PRIMARY = testPort(26602);
const REPLICA = testPort(26603);
const STRATEGIES = ['setnx', 'set-nx-px', 'owner-checked', 'reentrant', 'watchdog', 'fenced'];
jest.setTimeout(30_000);

let primary: RunningChild;
let replica: RunningChild;
let replicaProbe: Redis;
let primaryProbe: Redis;

beforeAll(async () => {
  primary = await startPrivateRedis(PRIMARY);
  replica = await startPrivateRedis(REPLICA, ['--replicaof', '127.0.0.1', String(PRIMARY)]);
  replicaProbe = new Client(REPLICA, '127.0.0.1');
  primaryProbe = new Client(PRIMARY, '127.0.0.1');
  await untilReplicaLinked(replicaProbe);
});
afterAll(async () => {
  if (replica) signalServer(replica, 'SIGCONT');
  await Promise.all([replicaProbe?.quit(), primaryProbe?.quit()]);
  await replica?.stop();
  await primary?.stop();
});

function strategiesOf(runtime: LockRuntime, events = new RecordingSink()): Map<string, LockStrategy> {
  return new Map(createLockStrategies(runtime, events).map((s) => [s.name, s]));
}

describe.each(STRATEGIES)('%s with waitForReplicas', (name) => {
  let runtime: LockRuntime;
  let events: RecordingSink;
  let strategy: LockStrategy;

  beforeEach(() => {
    runtime = LockRuntime.connect({
      redisUrl: `redis://127.0.0.1:${PRIMARY}`,
      replicaId: 'api-1',
      waitForReplicas: { replicas: 1, timeoutMs: 100 },
    });
    events = new RecordingSink();
    strategy = strategiesOf(runtime, events).get(name)!;
  });
  afterEach(() => runtime.close());

  it('acquires once the replica has the lock', async () => {
    const resource = uniqueResource(`wait-${name}`);
    const onReplica = await strategy.run(resource, { leaseMs: 5000, waitMs: 1000 }, () =>
      replicaProbe.exists(lockKeys(resource).lock),
    );
    expect(onReplica).toBe(1);
  });

  it('refuses while the replica does not acknowledge, and leaves no lock behind', async () => {
    const resource = uniqueResource(`wait-frozen-${name}`);
    signalServer(replica, 'SIGSTOP');
    let outcome: unknown;
    try {
      outcome = await strategy
        .run(resource, { leaseMs: 5000, waitMs: 350 }, () => Promise.resolve('acquired'))
        .catch((e: unknown) => e);
    } finally {
      signalServer(replica, 'SIGCONT');
    }
    expect(outcome).toBeInstanceOf(LockTimeoutError);
    expect(events.of('replicas-missing', resource).length).toBeGreaterThanOrEqual(1);
    expect(events.of('acquire', resource)).toHaveLength(0);
    expect(await primaryProbe.exists(lockKeys(resource).lock)).toBe(0);
  });
});

it('without the option, the same frozen replica does not stop an acquire (the risk the option removes)', async () => {
  const runtime = LockRuntime.connect({ redisUrl: `redis://127.0.0.1:${PRIMARY}`, replicaId: 'api-1' });
  const resource = uniqueResource('wait-off');
  signalServer(replica, 'SIGSTOP');
  try {
    const outcome = await strategiesOf(runtime)
      .get('owner-checked')!
      .run(resource, { leaseMs: 5000, waitMs: 350 }, () => Promise.resolve('acquired'));
    expect(outcome).toBe('acquired');
  } finally {
    signalServer(replica, 'SIGCONT');
    await runtime.close();
  }
});
