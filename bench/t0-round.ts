import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient, CallAnswer, RoomTicket, TicketState } from '@app/contract';
import { summarizeLatencies } from '@app/stock';
import { mostInWindow, outOfOrderShare, type T0Run, type T0Settings } from './t0-report';

export { renderT0, T0_SETTINGS, type T0Run, type T0Settings } from './t0-report';

interface Buyer {
  readonly index: number;
  readonly scheduledAt: number;
  /** How late this client itself sent the first request (its own timer lag), ms. */
  lateMs?: number;
  polls: number;
  /** From the scheduled time to the first answer (the join's with a room, the grab's without). */
  firstMs?: number;
  firstStatus?: number;
  ticket?: number;
  /** When the room admitted it (Redis's clock), as its poll told. */
  admittedAt?: number;
  outcome?: string;
  outcomeMs?: number;
}

const named = (a: CallAnswer) => `${a.status}${a.code ? ` ${a.code}` : ''}`;

async function withRoom(api: ApiClient, couponId: number, b: Buyer, s: T0Settings, userId: string): Promise<string> {
  const join = await api.joinRoom(couponId, userId);
  [b.firstMs, b.firstStatus] = [join.answeredAt - b.scheduledAt, join.status];
  if (join.status !== 202) return named(join);
  const { ticket, etaMs } = join.body as unknown as RoomTicket;
  b.ticket = Number(ticket.split('-')[0]);
  let waitMs = etaMs;
  for (;;) {
    await sleep(Math.min(3000, Math.max(500, waitMs))); // polls follow the room's estimate, 1 every 0.5 to 3 s
    b.polls++;
    const poll = await api.ticketState(couponId, ticket);
    if (poll.status !== 200) return `poll ${named(poll)}`;
    const state = poll.body as unknown as TicketState;
    if (state.state === 'waiting') waitMs = state.etaMs;
    else if (state.state !== 'admitted') return state.state;
    else {
      b.admittedAt = state.until - s.windowMs;
      return named(await api.grab(couponId, userId, { strategy: s.strategy, workMs: s.workMs, ticket }));
    }
  }
}

async function direct(api: ApiClient, couponId: number, b: Buyer, s: T0Settings, userId: string): Promise<string> {
  const grab = await api.grab(couponId, userId, { strategy: s.strategy, workMs: s.workMs });
  [b.firstMs, b.firstStatus] = [grab.answeredAt - b.scheduledAt, grab.status];
  return named(grab);
}

/** One T0 round on the stack: every buyer on its schedule, then what the buyers saw and the audit. */
export async function runT0(api: ApiClient, s: T0Settings, room: boolean): Promise<T0Run> {
  const coupon = await api.createCoupon({
    name: `t0 ${room ? 'room' : 'no room'} ${Date.now()}`,
    stock: s.stock,
    ...(room ? { room: { admitPerSec: s.admitPerSec, windowMs: s.windowMs } } : {}),
  });
  const run = Date.now().toString(36);
  // Connections opened before T0, as a crowd's browsers have theirs: the round times the stack, not TCP set-up.
  await Promise.all(Array.from({ length: 200 }, () => api.strategies()));
  const startAt = Date.now() + 200;
  const buyers: Buyer[] = Array.from({ length: s.buyers }, (_, i) => ({
    index: i,
    scheduledAt: startAt + i * s.everyMs,
    polls: 0,
  }));
  const flow = room ? withRoom : direct;
  await Promise.all(
    buyers.map(async (b) => {
      await sleep(b.scheduledAt - Date.now());
      b.lateMs = Date.now() - b.scheduledAt;
      b.outcome = await flow(api, coupon.id, b, s, `t0-${run}-${b.index}`);
      b.outcomeMs = Date.now() - b.scheduledAt;
    }),
  );
  const grants = await api.grants(coupon.id);
  const first = buyers.flatMap((b) => (b.firstMs === undefined || b.firstStatus === 0 ? [] : [b.firstMs]));
  const outcomes: Record<string, number> = {};
  for (const b of buyers) outcomes[b.outcome ?? '?'] = (outcomes[b.outcome ?? '?'] ?? 0) + 1;
  return {
    room,
    firstAnswer: summarizeLatencies(first),
    clientLate: summarizeLatencies(buyers.map((b) => b.lateMs ?? 0)),
    fromSent: summarizeLatencies(buyers.flatMap((b) => (b.firstMs === undefined ? [] : [b.firstMs - (b.lateMs ?? 0)]))),
    polls: buyers.reduce((sum, b) => sum + b.polls, 0),
    waitedOver1s: first.filter((ms) => ms > 1000).length,
    unanswered: buyers.length - first.length,
    serverErrors: buyers.filter((b) => (b.firstStatus ?? 0) >= 500 || /^(poll )?5/.test(b.outcome ?? '')).length,
    outcomes,
    lastOutcomeMs: Math.max(...buyers.map((b) => b.outcomeMs ?? Infinity)),
    grants: grants.length,
    grantsToFirst120: grants.filter((g) => Number(g.userId.split('-').at(-1)) < 120).length,
    // Judged by when each join was sent: this client's own lateness is not the room's doing.
    outOfOrder: outOfOrderShare(
      buyers.map((b) => ({ ticket: b.ticket, scheduledAt: b.scheduledAt + (b.lateMs ?? 0) })),
      50,
    ),
    mostAdmittedPerSec: mostInWindow(
      buyers.flatMap((b) => (b.admittedAt ? [b.admittedAt] : [])),
      1000,
    ),
    audit: await api.audit(coupon.id),
  };
}
