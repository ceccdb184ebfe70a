import type { BenchReport } from '../types';

/**
 * Every sold-out round's answers per second, slowest first. A turned-away grab takes one path
 * whatever the strategy (the memo is asked before the strategy is): the grab POST through nginx,
 * validated and answered, touching no database. Its median is the grab path's own rate in the run.
 */
export function soldOutRates(report: BenchReport): number[] {
  return report.loads
    .flatMap((l) => l.results)
    .flatMap((r) => (r.soldOut ? [r.soldOut.perSec] : []))
    .sort((a, b) => a - b);
}
