import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { noLockEvents } from './lock-events';
import { ConfigurableModuleClass, LOCK_MODULE_OPTIONS, type LockModuleOptions } from './lock-module.options';
import { LockRegistry } from './lock-registry';
import { LockRuntime } from './lock-runtime';
import { createLockStrategies } from './lock-strategies';
import type { LockStrategy } from './lock-strategy';
import { createRedlockStrategy } from './redlock';

function validated(options: LockModuleOptions): LockModuleOptions {
  if (!options.redisUrl) throw new Error('LockModule: redisUrl is required');
  if (!options.replicaId) throw new Error('LockModule: replicaId is required');
  const replicas = options.waitForReplicas;
  if (replicas && (!(replicas.replicas >= 1) || !(replicas.timeoutMs >= 0))) {
    throw new Error('LockModule: waitForReplicas needs replicas >= 1 and timeoutMs >= 0');
  }
  if (options.handoffLimit !== undefined && !(Number.isInteger(options.handoffLimit) && options.handoffLimit >= 0)) {
    throw new Error('LockModule: handoffLimit must be an integer >= 0');
  }
  return options;
}

/** The lock guard: every strategy, built once per process and looked up by name. */
@Module({
  providers: [
    {
      provide: LockRuntime,
      inject: [LOCK_MODULE_OPTIONS],
      useFactory: (options: LockModuleOptions) => LockRuntime.connect(validated(options)),
    },
    {
      provide: LockRegistry,
      inject: [LockRuntime, LOCK_MODULE_OPTIONS],
      useFactory: (runtime: LockRuntime, options: LockModuleOptions) => {
        const events = options.events ?? noLockEvents;
        const strategies: LockStrategy[] = createLockStrategies(runtime, events);
        if (options.redlockUrls?.length) {
          const redlock = createRedlockStrategy({
            urls: options.redlockUrls,
            events,
            handoffLimit: options.handoffLimit,
          });
          runtime.closeWith(() => redlock.close());
          strategies.push(redlock);
        }
        return new LockRegistry(strategies);
      },
    },
  ],
  exports: [LockRegistry, LockRuntime],
})
export class LockModule extends ConfigurableModuleClass implements OnApplicationShutdown {
  constructor(@Inject(LockRuntime) private readonly runtime: LockRuntime) {
    super();
  }

  /** After the HTTP server has closed: give back every lock still held, stop renewing, disconnect. */
  async onApplicationShutdown(): Promise<void> {
    await this.runtime.releaseAll();
    await this.runtime.close();
  }
}
