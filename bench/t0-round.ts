import { mostInWindow, outOfOrderShare, runCrowd, type ApiClient, type CrowdBuyer } from '@app/contract';
import { summarizeLatencies } from '@app/stock';
import { tally } from './metrics/figures';
import type { T0Run, T0Settings } from './t0-report';

export { renderT0, T0_SETTINGS, type T0Run, type T0Settings } from './t0-report';

/** One T0 round on the stack: every buyer on its schedule (open loop), then what they saw and the audit. */
export async function runT0(api: ApiClient, s: T0Settings, room: boolean): Promise<T0Run> {
  const coupon = await api.createCoupon({
    name: `t0 ${room ? 'room' : 'no room'} ${Date.now()}`,
    stock: s.stock,
    ...(room ? { room: { admitPerSec: s.admitPerSec, windowMs: s.windowMs } } : {}),
  });
  const label = `t0-${Date.now().toString(36)}`;
  const buyers = await runCrowd(api, coupon.id, { ...s, label, room: room ? { windowMs: s.windowMs } : undefined });
  const grants = await api.grants(coupon.id);
  return {
    ...t0Figures(buyers, room),
    grants: grants.length,
    audit: await api.audit(coupon.id),
    grantsToFirst120: grants.filter((g) => Number(g.userId.split('-').at(-1)) < 120).length,
  };
}

/** What the buyers saw, from their own records. */
export function t0Figures(buyers: readonly CrowdBuyer[], room: boolean) {
  const answered = buyers.filter((b) => b.firstAt !== undefined && b.firstStatus !== 0);
  const first = answered.map((b) => b.firstAt! - b.scheduledAt);
  const admitted = buyers.flatMap((b) => (b.admittedAt ? [b.admittedAt] : []));
  return {
    room,
    firstAnswer: summarizeLatencies(first),
    clientLate: summarizeLatencies(buyers.map((b) => (b.sentAt ?? b.scheduledAt) - b.scheduledAt)),
    fromSent: summarizeLatencies(answered.map((b) => b.firstAt! - b.sentAt!)),
    polls: buyers.reduce((sum, b) => sum + b.polls, 0),
    waitedOver1s: first.filter((ms) => ms > 1000).length,
    unanswered: buyers.length - answered.length,
    serverErrors: buyers.filter((b) => (b.firstStatus ?? 0) >= 500 || /^(poll )?5/.test(b.outcome ?? '')).length,
    outcomes: tally(buyers.map((b) => b.outcome ?? '?')),
    lastOutcomeMs: Math.max(...buyers.map((b) => (b.outcomeAt ?? Infinity) - b.scheduledAt)),
    // Judged by when each join was sent: this client's own lateness is not the room's doing.
    outOfOrder: outOfOrderShare(
      buyers.map((b) => ({ ticket: b.ticket, scheduledAt: b.sentAt ?? b.scheduledAt })),
      50,
    ),
    mostAdmittedPerSec: mostInWindow(admitted, 1000),
    admitted: admitted.length,
    admitSpanMs: admitted.length ? Math.max(...admitted) - Math.min(...admitted) : 0,
  };
}
