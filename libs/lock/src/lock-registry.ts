import type { LockStrategy } from './lock-strategy';

/** The strategies this process can guard a critical section with, by name. */
export class LockRegistry {
  private readonly byName = new Map<string, LockStrategy>();

  constructor(strategies: Iterable<LockStrategy>) {
    for (const strategy of strategies) this.byName.set(strategy.name, strategy);
  }

  get(name: string): LockStrategy | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}
