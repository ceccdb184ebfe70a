import type { Redis } from 'ioredis';
import type { HeldLock, LockOptions, LockStrategy } from '../../libs/lock/src/lock-strategy';
import { deferred, probeClient, startReplica, type TestReplica } from './lock-kit';

export interface ReplicasOfTest {
  readonly replicas: TestReplica[];
  readonly probe: Redis;
}

/**
 * Fresh replicas named `ids` and a probe client for every test, closed after it. `use` gets them
 * before each test, so a spec keeps its own short names for them.
 */
export function replicasForEachTest(ids: string[], use: (started: ReplicasOfTest) => void): void {
  let started: ReplicasOfTest;
  beforeEach(() => {
    started = { replicas: ids.map((id) => startReplica(id)), probe: probeClient() };
    use(started);
  });
  afterEach(async () => {
    await Promise.all(started.replicas.map((r) => r.close()));
    await started.probe.quit();
  });
}

export interface Holder {
  /** The run: settles once the holder has left and released (or failed to). */
  readonly run: Promise<void>;
  /** Lets the holder leave its critical section. */
  leave(): void;
}

/**
 * A holder of `resource` that stays inside until `leave()`; resolves once it is inside (rejects if
 * the run fails before). `entered` sees its lock first, for a spec that watches its signal or owner.
 */
export async function holdInside(
  strategy: LockStrategy,
  resource: string,
  options: LockOptions,
  entered: (lock: HeldLock) => void = () => undefined,
): Promise<Holder> {
  const inside = deferred();
  const mayLeave = deferred();
  const run = strategy.run(resource, options, async (lock) => {
    entered(lock);
    inside.resolve();
    await mayLeave.promise;
  });
  await Promise.race([inside.promise, run]);
  return { run, leave: () => mayLeave.resolve() };
}
