/**
 * What the bench needs to know about a strategy beyond its name, as a declarative map. A strategy
 * the API lists but the map does not name runs with the defaults: single stock row, a lock that
 * promises mutual exclusion, expected to be correct under plain load (no chaos).
 */
export interface Scenario {
  /** Stock rows the coupon is split into ('segments' takes the --segments option). */
  readonly segments: 'one' | 'option';
  /** It claims at most one holder per stock row: two overlapping holders are then a bug. */
  readonly promisesExclusion: boolean;
  /** Correct under plain load; false for the baselines that exist to show the bug. */
  readonly expectedCorrect: boolean;
}

const defaults: Scenario = { segments: 'one', promisesExclusion: true, expectedCorrect: true };

export const scenarios: Readonly<Record<string, Partial<Scenario>>> = {
  // No lock at all: many read the same stock and write back the same value.
  none: { promisesExclusion: false, expectedCorrect: false },
  // A mutex per replica: three replicas, three holders at once.
  synchronized: { expectedCorrect: false },
  // One lock per stock segment: holders of different segments overlap by design.
  segmented: { segments: 'option' },
  // The database makes the decrement safe without excluding anyone from the section.
  'db-atomic': { promisesExclusion: false },
  'db-optimistic': { promisesExclusion: false },
  // Stock reserved by a Lua script in Redis: atomic, no lock, no section to exclude anyone from.
  'redis-lua': { promisesExclusion: false },
};

export function scenarioFor(strategy: string): Scenario {
  return { ...defaults, ...scenarios[strategy] };
}

/** The query string every grab of this strategy carries. */
export function grabQuery(strategy: string, workMs: number): Record<string, string> {
  return { strategy, workMs: String(workMs) };
}

export function segmentsFor(strategy: string, segmentsOption: number): number {
  return scenarioFor(strategy).segments === 'option' ? segmentsOption : 1;
}
