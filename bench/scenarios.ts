import type { Bound, CeilingName, Ceilings, StrategyResult, VerdictFlag } from './types';

// The ceilings a grab passes through: HTTP, then the database or Redis.
const DB: readonly CeilingName[] = ['httpPerSec', 'pgHotRowPerSec'];
const REDIS: readonly CeilingName[] = ['httpPerSec', 'redisPerSec'];

/** What the bench assumes of a strategy the map below does not name: a correct lock on one stock row. */
const defaults = {
  // Stock rows the coupon is split into ('option' takes the --segments option).
  segments: 'one' as 'one' | 'option',
  // At most one holder per stock row is promised: two overlapping holders are then a bug.
  promisesExclusion: true,
  // The verdict's flags under plain load: none for a correct strategy.
  expectedFlags: [] as readonly VerdictFlag[],
  // The ceilings its grabs pass through; the lowest bounds it.
  bounds: [...DB, 'redisPerSec'] as readonly CeilingName[],
  // workMs is spent inside a Redis lock, between reading the stock and writing it back.
  inLock: true,
  // 200 granted, or 202 accepted (granted later, so judged once the orders drained).
  successStatus: 200 as 200 | 202,
};

export type Scenario = Readonly<typeof defaults>;

export const scenarios: Readonly<Record<string, Partial<Scenario>>> = {
  // No lock: many read the same stock and write back the same value.
  none: { promisesExclusion: false, expectedFlags: ['OVERSOLD', 'LOST UPDATES'], bounds: DB, inLock: false },
  // A mutex per replica: three replicas, three holders at once.
  synchronized: { expectedFlags: ['OVERSOLD', 'LOST UPDATES', 'TWO HOLDERS'], bounds: DB, inLock: false },
  // One lock per stock segment: holders of different segments overlap by design, no one row is hot.
  segmented: { segments: 'option', bounds: REDIS },
  // The database makes the decrement safe; the work runs before the statement.
  'db-atomic': { promisesExclusion: false, bounds: DB, inLock: false },
  // The work runs inside the transaction, the row locked by SELECT … FOR UPDATE.
  'db-for-update': { bounds: DB, inLock: false },
  // The work runs between the read and the conditional write, again on each retry.
  'db-optimistic': { promisesExclusion: false, bounds: DB, inLock: false },
  // One statement grants a replica's queue of grabs: no single holder, and a commit carries many grants.
  'db-batched': { promisesExclusion: false, bounds: ['httpPerSec'], inLock: false },
  // Stock reserved by a Lua script in Redis, then persisted with db-atomic's statement.
  'redis-lua': { promisesExclusion: false, inLock: false },
  // Accepted in Redis (202), persisted later in batches by every replica's persister.
  'redis-stream': { promisesExclusion: false, inLock: false, bounds: REDIS, successStatus: 202 },
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

/** A result held to the ceilings of the whole run. */
export function withBounds(result: StrategyResult, ceilings: Ceilings): StrategyResult {
  return { ...result, bound: boundOf(result.grabsPerSec, ceilings, scenarioFor(result.strategy).bounds) };
}
