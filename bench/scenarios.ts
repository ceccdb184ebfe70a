import type { CeilingName, VerdictFlag } from './types';

/**
 * What the bench needs to know about a strategy beyond its name, as a declarative map. A strategy
 * the API lists but the map does not name runs with the defaults: one stock row, a lock that
 * promises mutual exclusion, expected correct under plain load, work inside the lock.
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
  /** Where it spends workMs, for the method and the README. */
  readonly workAt: string;
}

const HOT_ROW_LOCK: readonly CeilingName[] = ['httpPerSec', 'pgHotRowPerSec', 'redisPerSec'];
export const IN_LOCK = 'inside the lock, between reading the stock and writing it back';

const defaults: Scenario = {
  segments: 'one',
  promisesExclusion: true,
  expectedFlags: [],
  bounds: HOT_ROW_LOCK,
  workAt: IN_LOCK,
};

export const scenarios: Readonly<Record<string, Partial<Scenario>>> = {
  // No lock at all: many read the same stock and write back the same value.
  none: {
    promisesExclusion: false,
    expectedFlags: ['OVERSOLD', 'LOST UPDATES'],
    bounds: ['httpPerSec', 'pgHotRowPerSec'],
    workAt: 'between reading the stock and writing it back, with no lock',
  },
  // A mutex per replica: three replicas, three holders at once.
  synchronized: {
    expectedFlags: ['OVERSOLD', 'LOST UPDATES', 'TWO HOLDERS'],
    bounds: ['httpPerSec', 'pgHotRowPerSec'],
    workAt: 'inside the replica’s own mutex, between read and write',
  },
  // One lock per stock segment: holders of different segments overlap by design, and no one row is hot.
  segmented: { segments: 'option', bounds: ['httpPerSec', 'redisPerSec'] },
  // The database makes the decrement safe without excluding anyone from a section.
  'db-atomic': {
    promisesExclusion: false,
    bounds: ['httpPerSec', 'pgHotRowPerSec'],
    workAt: 'before the deducting statement (there is no section to put it in)',
  },
  'db-for-update': {
    bounds: ['httpPerSec', 'pgHotRowPerSec'],
    workAt: 'inside the transaction, with the row locked by SELECT … FOR UPDATE',
  },
  'db-optimistic': {
    promisesExclusion: false,
    bounds: ['httpPerSec', 'pgHotRowPerSec'],
    workAt: 'between the read and the conditional write; each retry works again',
  },
  // One statement grants a replica's whole queue of grabs for the coupon: a batch's grants share one
  // section by design, so it promises no single holder. Its verdict judges the stock only (oversold,
  // lost updates, undersold, reconciled), never holders; the audit's `statements` shows the batching.
  // Not bounded by the hot row: a commit carries many grants.
  'db-batched': {
    promisesExclusion: false,
    bounds: ['httpPerSec'],
    workAt: 'before the grab joins its coupon’s batch queue (the batch statement has no section)',
  },
  // Stock reserved by a Lua script in Redis, then persisted with db-atomic's statement.
  'redis-lua': {
    promisesExclusion: false,
    workAt: 'before the Redis reservation and the persisting statement (no section)',
  },
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
