import type { BenchReport, SoldOutRound } from '../types';

/** A strategy's sold-out round, named by strategy and load. */
export interface NamedSoldOutRound {
  readonly strategy: string;
  readonly workMs: number;
  readonly round: SoldOutRound;
}

/**
 * Every sold-out round, slowest first. A turned-away grab takes one path whatever the strategy
 * (the memo is asked before the strategy is): the grab POST through nginx, validated and answered,
 * touching no database. Their median is the grab path's own rate in the run.
 */
export function soldOutRounds(report: BenchReport): NamedSoldOutRound[] {
  return report.loads
    .flatMap((l) => l.results)
    .flatMap((r) => (r.soldOut ? [{ strategy: r.strategy, workMs: r.workMs, round: r.soldOut }] : []))
    .sort((a, b) => a.round.perSec - b.round.perSec);
}

/** Every sold-out round's answers per second, slowest first. */
export function soldOutRates(report: BenchReport): number[] {
  return soldOutRounds(report).map((r) => r.round.perSec);
}
