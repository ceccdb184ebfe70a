import type { ApiClient } from '@app/contract';
import { segmentsFor } from './scenarios';
import type { WorkProbe } from './types';

const BUYERS = 3;

/**
 * Same work for all, checked: a few buyers at once grab with a long workMs, and every one granted
 * must have taken at least that long, whatever the strategy (the work runs wherever the design
 * puts it, but it runs).
 */
export async function probeWork(
  api: ApiClient,
  strategy: string,
  workMs: number,
  segmentsOption: number,
  runId: string,
): Promise<WorkProbe> {
  const coupon = await api.createCoupon({
    name: `bench work probe ${strategy} ${runId}`,
    stock: BUYERS,
    segments: segmentsFor(strategy, segmentsOption),
  });
  const answers = await Promise.all(
    Array.from({ length: BUYERS }, (_, i) =>
      api.grab(coupon.id, `probe-${runId}-${strategy}-${i}`, { strategy, workMs }),
    ),
  );
  const granted = answers.filter((a) => a.status === 200).map((a) => a.answeredAt - a.sentAt);
  const minGrantedMs = granted.length > 0 ? Math.min(...granted) : 0;
  return { strategy, workMs, granted: granted.length, minGrantedMs, ok: granted.length > 0 && minGrantedMs >= workMs };
}
