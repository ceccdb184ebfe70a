import { scenarioFor } from '../scenarios';
import type { Bound, CeilingName, Ceilings, StrategyResult } from '../types';

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
