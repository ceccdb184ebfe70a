import type { LockEventSink } from './lock-events';
import type { LockRuntime } from './lock-runtime';
import type { LockStrategy } from './lock-strategy';
import { FencedStrategy } from './strategies/fenced.strategy';
import { NoneStrategy } from './strategies/none.strategy';
import { OwnerCheckedStrategy } from './strategies/owner-checked.strategy';
import { ReentrantStrategy } from './strategies/reentrant.strategy';
import { SetNxPxStrategy } from './strategies/set-nx-px.strategy';
import { SetnxStrategy } from './strategies/setnx.strategy';
import { SynchronizedStrategy } from './strategies/synchronized.strategy';
import { WatchdogStrategy } from './strategies/watchdog.strategy';

/** Every strategy of the library, in the order each fixes the one before. */
export function createLockStrategies(runtime: LockRuntime, events: LockEventSink): LockStrategy[] {
  const deps = { runtime, events };
  return [
    new NoneStrategy(),
    new SynchronizedStrategy(deps),
    new SetnxStrategy(deps),
    new SetNxPxStrategy(deps),
    new OwnerCheckedStrategy(deps),
    new ReentrantStrategy(deps),
    new WatchdogStrategy(deps),
    new FencedStrategy(deps),
  ];
}
