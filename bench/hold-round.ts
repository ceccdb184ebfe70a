import type { ApiClient } from '@app/contract';
import { summarizeLatencies } from '@app/stock';
import { closedLoop } from './closed-loop';
import { tally } from './metrics/figures';
import { verdictOf, type VerdictFlag } from './metrics/verdict';

const EXPECTED = new Set(['confirm 200', 'hold 409 STOCK.SOLD_OUT']);

export type HoldRoundResult = Awaited<ReturnType<typeof measureHolds>>;

/** The hold → confirm flow: each buyer holds a unit, then confirms it; pairs/s from the first hold to the last confirm. */
export async function measureHolds(
  api: ApiClient,
  runId: string,
  load: { buyers: number; stock: number; inFlight: number },
) {
  const coupon = await api.createCoupon({ name: `bench holds ${runId}`, stock: load.stock });
  const keys: string[] = [];
  const pairMs: number[] = [];
  let lastPairAt = 0;
  const startedAt = Date.now();
  await closedLoop(load.buyers, load.inFlight, async (n) => {
    const hold = await api.hold(coupon.id, `hold-${runId}-${n}`);
    const holdId = hold.status === 201 ? String(hold.body?.holdId) : undefined;
    const end = holdId ? await api.confirmHold(coupon.id, holdId) : hold;
    const key = `${holdId ? 'confirm' : 'hold'} ${end.status}${end.code ? ` ${end.code}` : ''}`;
    keys.push(key);
    if (key === 'confirm 200') pairMs.push((lastPairAt = end.answeredAt) - hold.sentAt);
  });
  const audit = await api.audit(coupon.id);
  // Every answer that ended a buyer's pair: "confirm 200", "hold 409 STOCK.SOLD_OUT".
  const answers = tally(keys);
  // NOT RECONCILED unless initial = stock + held + confirmed; FAILED on any other answer.
  const flags: VerdictFlag[] = [];
  if (audit.oversold > 0) flags.push('OVERSOLD');
  if (Object.keys(answers).some((k) => !EXPECTED.has(k))) flags.push('FAILED');
  if (audit.initialStock !== audit.stock + (audit.held ?? 0) + (audit.confirmed ?? 0)) flags.push('NOT RECONCILED');
  const spanMs = lastPairAt - startedAt;
  return {
    ...load,
    pairs: pairMs.length,
    pairsPerSec: spanMs > 0 ? (pairMs.length * 1000) / spanMs : 0,
    pairP99Ms: summarizeLatencies(pairMs)?.p99 ?? 0,
    answers,
    audit,
    verdict: verdictOf(flags, []),
  };
}

export const holdRoundLine = (h: HoldRoundResult): string =>
  `hold → confirm: ${h.verdict.label}, ${h.pairsPerSec.toFixed(0)} pairs/s, pair p99 ${h.pairP99Ms.toFixed(0)} ms ` +
  `(${h.pairs} confirmed of ${h.stock} units, ${h.buyers} buyers)`;
