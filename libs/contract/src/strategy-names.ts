/** Every strategy name of the contract, in teaching order. */
export const STRATEGY_NAMES = [
  'none',
  'synchronized',
  'setnx',
  'set-nx-px',
  'owner-checked',
  'reentrant',
  'watchdog',
  'segmented',
  'fenced',
  'redlock',
  'db-atomic',
  'db-for-update',
  'db-optimistic',
  'redis-lua',
  'db-batched',
  'redis-stream',
] as const;

export type StrategyName = (typeof STRATEGY_NAMES)[number];

/** Strategies whose stock buyers are promised is a Redis counter, ahead of the stock of record in PostgreSQL. */
export const REDIS_COUNTER_STRATEGIES: readonly StrategyName[] = ['redis-lua', 'redis-stream'];

export function isStrategyName(value: string): value is StrategyName {
  return (STRATEGY_NAMES as readonly string[]).includes(value);
}
