import { mostInWindow, outOfOrderShare, runCrowd, type ApiClient } from '@app/contract';
import { summarizeLatencies } from '@app/stock';
import { tally } from './metrics/figures';

/**
 * The T0 round: buyers arrive on a clock, one every `everyMs`, for `stock` units, with or without a
 * room; what they saw, how it is judged from outside (arrival order kept, the room's pace), and its lines.
 */
export const T0_SETTINGS = {
  buyers: 1000,
  everyMs: 2,
  stock: 100,
  admitPerSec: 200,
  windowMs: 10_000,
  strategy: 'watchdog',
  workMs: 10,
};
type T0Settings = typeof T0_SETTINGS;

/** One T0 round on the stack: every buyer on its schedule (open loop), then what they saw (from their own records) and the audit. */
export async function runT0(api: ApiClient, s: T0Settings, room: boolean) {
  const coupon = await api.createCoupon({
    name: `t0 ${room ? 'room' : 'no room'} ${Date.now()}`,
    stock: s.stock,
    ...(room ? { room: { admitPerSec: s.admitPerSec, windowMs: s.windowMs } } : {}),
  });
  const label = `t0-${Date.now().toString(36)}`;
  const buyers = await runCrowd(api, coupon.id, { ...s, label, room: room ? { windowMs: s.windowMs } : undefined });
  const grants = await api.grants(coupon.id);
  const answered = buyers.filter((b) => b.firstAt !== undefined && b.firstStatus !== 0);
  const first = answered.map((b) => b.firstAt! - b.scheduledAt);
  const admitted = buyers.flatMap((b) => (b.admittedAt ? [b.admittedAt] : []));
  return {
    room,
    firstAnswer: summarizeLatencies(first),
    // This client's own lateness in sending each first request (part of every figure), then the stack's share.
    clientLate: summarizeLatencies(buyers.map((b) => (b.sentAt ?? b.scheduledAt) - b.scheduledAt)),
    fromSent: summarizeLatencies(answered.map((b) => b.firstAt! - b.sentAt!)),
    polls: buyers.reduce((sum, b) => sum + b.polls, 0),
    waitedOver1s: first.filter((ms) => ms > 1000).length,
    // From the room's admission to the grant's answer, for the buyers granted.
    admittedToGrant: summarizeLatencies(
      buyers.flatMap((b) => (b.outcome === '200' && b.admittedAt && b.outcomeAt ? [b.outcomeAt - b.admittedAt] : [])),
    ),
    unanswered: buyers.length - answered.length,
    serverErrors: buyers.filter((b) => (b.firstStatus ?? 0) >= 500 || /^(poll )?5/.test(b.outcome ?? '')).length,
    outcomes: tally(buyers.map((b) => b.outcome ?? '?')),
    lastOutcomeMs: Math.max(...buyers.map((b) => (b.outcomeAt ?? Infinity) - b.scheduledAt)),
    // Of the pairs of joins ≥ 50 ms apart, the share whose tickets came in the other order: judged by
    // when each join was sent, as this client's own lateness is not the room's doing.
    outOfOrder: outOfOrderShare(
      buyers.map((b) => ({ ticket: b.ticket, scheduledAt: b.sentAt ?? b.scheduledAt })),
      50,
    ),
    // The room's own admission times: pacing says at most admitPerSec in any 1 s, and a span of no
    // less than (n − 1) × 1000 / admitPerSec.
    mostAdmittedPerSec: mostInWindow(admitted, 1000),
    admitted: admitted.length,
    admitSpanMs: admitted.length ? Math.max(...admitted) - Math.min(...admitted) : 0,
    grants: grants.length,
    audit: await api.audit(coupon.id),
    grantsToFirst120: grants.filter((g) => Number(g.userId.split('-').at(-1)) < 120).length,
  };
}

/**
 * What admission buys, from one run of each: held when both sold exactly the stock, and the room's
 * buyers heard sooner (p99 of the first answer) and fewer waited over 1 s than without it.
 */
export function t0Lesson(s: T0Settings, bare: T0Run, room: T0Run) {
  const exact = (r: T0Run) => r.audit.grants === s.stock && r.audit.oversold === 0;
  const p99 = (r: T0Run) => r.firstAnswer?.p99 ?? Infinity;
  const text =
    `At T0, ${s.buyers} buyers arriving within ${(s.buyers * s.everyMs) / 1000} s for ${s.stock} units: ` +
    `without a room the p99 buyer heard nothing for ${p99(bare)} ms and ${bare.waitedOver1s} waited over 1 s; ` +
    `with a room of ${s.admitPerSec}/s every buyer had a position within p99 ${p99(room)} ms ` +
    `(${room.waitedOver1s} over 1 s), and the admitted ones a grant within p99 ${room.admittedToGrant?.p99 ?? '-'} ms.`;
  const held = exact(bare) && exact(room) && p99(room) < p99(bare) && room.waitedOver1s < bare.waitedOver1s;
  return { id: 'room-answers-at-once', text, held };
}

/** The round's figures as lines, the why of the open loop first. */
export function renderT0(s: T0Settings, runs: readonly T0Run[]): string[] {
  const [bare, room] = [runs.find((r) => !r.room), runs.find((r) => r.room)];
  const lesson = bare && room && t0Lesson(s, bare, room);
  return [
    `T0: ${s.buyers} buyers, one every ${s.everyMs} ms, for ${s.stock} units (${s.strategy}, workMs ${s.workMs})`,
    'open loop: each buyer fires at its scheduled time, whatever the answers before it, as a crowd at T0 does; ' +
      'a closed loop (the next request only after an answer) slows down with the server and hides its queue',
    ...runs.flatMap((r) => [
      `${r.room ? `with a room of ${s.admitPerSec}/s` : 'without a room'}: first answer p50 ${r.firstAnswer?.p50 ?? '-'} ms, p99 ${r.firstAnswer?.p99 ?? '-'} ms, max ${r.firstAnswer?.max ?? '-'} ms; ${r.waitedOver1s} waited over 1 s; ${r.unanswered} unanswered; ${r.serverErrors} 5xx; this client's own lateness p99 ${r.clientLate?.p99 ?? '-'} ms, from sent to answered p99 ${r.fromSent?.p99 ?? '-'} ms`,
      `  outcomes ${JSON.stringify(r.outcomes)}, the last ${r.lastOutcomeMs} ms after its arrival; grants ${r.grants} (${r.grantsToFirst120} to the first 120 arrivals)`,
      `  audit ${JSON.stringify(r.audit)}`,
      ...(r.room
        ? [
            `  out of order: ${(r.outOfOrder * 100).toFixed(2)}% of pairs ≥ 50 ms apart; most admitted in 1 s: ${r.mostAdmittedPerSec}; ${r.admitted} admissions over ${r.admitSpanMs} ms (the pace allows no less than ${Math.ceil(((r.admitted - 1) * 1000) / s.admitPerSec)}); ${r.polls} polls`,
          ]
        : []),
    ]),
    ...(lesson ? [`lesson: ${lesson.text} ${lesson.held ? 'Held.' : 'Not held.'}`] : []),
  ];
}

export type T0Run = Awaited<ReturnType<typeof runT0>>;
