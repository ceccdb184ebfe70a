import type { Bound, CeilingName, Ceilings, StrategyResult, VerdictFlag } from './types';

/**
 * What the bench knows of a strategy beyond its name, as a declarative map. A strategy the API
 * lists but the map does not name runs with the defaults: a lock on one stock row that promises
 * exclusion, correct under plain load, the work inside it.
 */
export interface Scenario {
  /** Stock rows the coupon is split into ('option' takes the --segments option). */
  readonly segments: 'one' | 'option';
  /** It claims at most one holder per stock row: two overlapping holders are then a bug. */
  readonly promisesExclusion: boolean;
  /** The verdict's flags under plain load: none for a correct strategy. */
  readonly expectedFlags: readonly VerdictFlag[];
  /** The ceilings its grabs pass through; the lowest bounds it. */
  readonly bounds: readonly CeilingName[];
  /** It spends workMs inside a Redis lock, between reading the stock and writing it back. */
  readonly inLock: boolean;
  /** Its success answer: 200 granted, or 202 accepted (the grant is made later; judged once drained). */
  readonly successStatus: 200 | 202;
}

const DB: readonly CeilingName[] = ['httpPerSec', 'pgHotRowPerSec'];
const defaults: Scenario = {
  segments: 'one',
  promisesExclusion: true,
  expectedFlags: [],
  bounds: [...DB, 'redisPerSec'],
  inLock: true,
  successStatus: 200,
};

export const scenarios: Readonly<Record<string, Partial<Scenario>>> = {
  // No lock: many read the same stock and write back the same value.
  none: { promisesExclusion: false, expectedFlags: ['OVERSOLD', 'LOST UPDATES'], bounds: DB, inLock: false },
  // A mutex per replica: three replicas, three holders at once.
  synchronized: { expectedFlags: ['OVERSOLD', 'LOST UPDATES', 'TWO HOLDERS'], bounds: DB, inLock: false },
  // One lock per stock segment: holders of different segments overlap by design, no one row is hot.
  segmented: { segments: 'option', bounds: ['httpPerSec', 'redisPerSec'] },
  // The database makes the decrement safe; the work runs before the statement.
  'db-atomic': { promisesExclusion: false, bounds: DB, inLock: false },
  // The work runs inside the transaction, the row locked by SELECT … FOR UPDATE.
  'db-for-update': { bounds: DB, inLock: false },
  // The work runs between the read and the conditional write, again on each retry.
  'db-optimistic': { promisesExclusion: false, bounds: DB, inLock: false },
  // One statement grants a replica's queue of grabs: a batch is one section of many grants, so no
  // single holder is promised, and a commit carries many grants (not bound by the hot row).
  'db-batched': { promisesExclusion: false, bounds: ['httpPerSec'], inLock: false },
  // Stock reserved by a Lua script in Redis, then persisted with db-atomic's statement.
  'redis-lua': { promisesExclusion: false, inLock: false },
  // Accepted in Redis (202), persisted later in batches by every replica's persister.
  'redis-stream': {
    promisesExclusion: false,
    inLock: false,
    bounds: ['httpPerSec', 'redisPerSec'],
    successStatus: 202,
  },
};

export function scenarioFor(strategy: string): Scenario {
  return { ...defaults, ...scenarios[strategy] };
}

export function segmentsFor(strategy: string, segmentsOption: number): number {
  return scenarioFor(strategy).segments === 'option' ? segmentsOption : 1;
}

/** The lowest of the ceilings a strategy's grabs pass through, and its grabs/s as a share of it. */
export function boundOf(perSec: number, ceilings: Ceilings, names: readonly CeilingName[]): Bound {
  const lowest = names.reduce((a, b) => (ceilings[b] < ceilings[a] ? b : a));
  const ceiling = ceilings[lowest];
  return { ceiling: lowest, perSec: ceiling, share: ceiling > 0 ? perSec / ceiling : 0 };
}

export const ceilingLabel: Readonly<Record<CeilingName, string>> = {
  httpPerSec: 'http',
  pgHotRowPerSec: 'pg hot row',
  redisPerSec: 'redis',
};

/** A result held to the ceilings of the whole run. */
export function withBounds(result: StrategyResult, ceilings: Ceilings): StrategyResult {
  return { ...result, bound: boundOf(result.grabsPerSec, ceilings, scenarioFor(result.strategy).bounds) };
}
