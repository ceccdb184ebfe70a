import type { SlowDbResult, SlowDbRun } from './slow-db-round';

/** A design's run with the stall at 500…1500 ms; `p99` the wait of the buyers who arrived meanwhile. */
export function slowDbRun(strategy: string, p50: number, p99: number, overrides: Partial<SlowDbRun> = {}): SlowDbRun {
  return {
    strategy,
    sentMs: [0, 700, 1800],
    waitMs: [5, p99, 6],
    answers: { [strategy === 'redis-stream' ? '202' : '200']: 3 },
    stallFromMs: 500,
    stallToMs: 1500,
    stalled: { p50, p99, max: p99 },
    caughtUpMs: strategy === 'redis-stream' ? 140 : 95,
    correct: true,
    ...overrides,
  };
}

export const slowDb = (runs: SlowDbRun[]): SlowDbResult => ({ buyers: 300, perSec: 150, stallMs: 1000, runs });
