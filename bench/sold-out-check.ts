import { withCpuWhy } from './cpu-why';
import { ceilingLabel } from './metrics/bound';
import { lowerMedian } from './metrics/median';
import { soldOutRounds } from './metrics/sold-out-rates';
import type { TargetCheck } from './target-check';
import type { BenchReport } from './types';

/**
 * Sold-out answers take one path whatever the strategy (the memo is asked before the strategy
 * is), so every strategy's sold-out round, under both loads, measures that one path again: their
 * median is held to the http ceiling (at least `floor` of it), with the spread shown beside it,
 * and when short, the median round's CPU per answer against the ceiling's per request.
 */
export function soldOutCheck(report: BenchReport, floor: number): TargetCheck {
  const rounds = soldOutRounds(report);
  const http = report.ceilings.httpPerSec;
  const target = `sold-out answers ≥ ${floor} × ${ceilingLabel.httpPerSec} ceiling`;
  if (rounds.length === 0 || http <= 0)
    return { target, measured: rounds.length ? 'no http ceiling' : 'no coupon sold out', met: undefined };
  const median = lowerMedian(rounds)!;
  const rate = median.round.perSec;
  const check = {
    target,
    measured:
      `median of ${rounds.length} sold-out rounds ${rate.toFixed(0)}/s = ${(rate / http).toFixed(2)}× ${http.toFixed(0)}/s ` +
      `(slowest ${rounds[0].round.perSec.toFixed(0)}/s, fastest ${rounds[rounds.length - 1].round.perSec.toFixed(0)}/s)`,
    met: rate >= floor * http,
  };
  return withCpuWhy(
    check,
    'answer',
    { name: `the median round (${median.strategy}'s at workMs ${median.workMs})`, cpu: median.round.machineCpu },
    { name: 'the http ceiling', cpu: report.ceilings.httpCpu },
  );
}
