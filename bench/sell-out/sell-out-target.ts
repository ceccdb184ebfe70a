import { lowerMedian } from '../metrics/median';
import type { TargetCheck } from '../target-check';
import type { SellOutResult, SellOutRun } from './sell-out.types';

export const SELL_OUT_RATIO = 3;

/** The median run of one strategy, by sell-out time (the lower middle when even). */
export function medianRun(result: SellOutResult, strategy: string): SellOutRun | undefined {
  const runs = result.runs.filter((r) => r.strategy === strategy).sort((a, b) => a.sellOutMs - b.sellOutMs);
  return lowerMedian(runs);
}

/** segmented(8) sells out ≥ 3× faster than owner-checked, medians of the same run. */
export function sellOutCheck(result: SellOutResult | undefined): TargetCheck[] {
  if (!result) return [];
  const target =
    `segmented (8) sells out ${result.stock} units ≥ ${SELL_OUT_RATIO}× faster than owner-checked ` +
    `(${result.buyers} buyers, ${result.inFlight} in flight, workMs ${result.workMs}, first request to last 200)`;
  const [single, segmented] = [medianRun(result, 'owner-checked'), medianRun(result, 'segmented')];
  if (!single || !segmented || segmented.sellOutMs <= 0) return [{ target, measured: 'not run', met: undefined }];
  const unsold = [single, segmented].filter((r) => r.stockLeft > 0);
  const ratio = single.sellOutMs / segmented.sellOutMs;
  const rounds = result.runs.filter((r) => r.strategy === 'segmented').length;
  return [
    {
      target,
      measured:
        `${ratio.toFixed(2)}× (${single.sellOutMs} vs ${segmented.sellOutMs} ms, medians of ${rounds} run(s))` +
        (unsold.length ? `; not sold out: ${unsold.map((r) => `${r.strategy} ${r.stockLeft} left`).join(', ')}` : ''),
      met: ratio >= SELL_OUT_RATIO && unsold.length === 0,
    },
  ];
}
