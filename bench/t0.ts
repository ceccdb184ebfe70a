import { runCrowd, type ApiClient } from '@app/contract';
import { summarizeLatencies } from '@app/stock';

/** The T0 round: buyers arrive on a clock, one every `everyMs`, for `stock` units, with or without a room. */
export const T0_SETTINGS = {
  buyers: 1000,
  everyMs: 2,
  stock: 100,
  strategy: 'watchdog',
  workMs: 10,
  room: { admitPerSec: 200, windowMs: 10_000 },
};
type T0Settings = typeof T0_SETTINGS;

/** One T0 round on the stack: every buyer on its schedule (open loop), how soon each heard, and the audit. */
export async function runT0(api: ApiClient, s: T0Settings, room: boolean) {
  const name = `t0 ${room ? 'room' : 'no room'} ${Date.now()}`;
  const coupon = await api.createCoupon({ name, stock: s.stock, ...(room && { room: s.room }) });
  const buyers = await runCrowd(api, coupon.id, { ...s, label: `t0-${coupon.id}`, room: room ? s.room : undefined });
  const answered = buyers.filter((b) => b.firstAt !== undefined && b.firstStatus !== 0);
  const first = answered.map((b) => b.firstAt! - b.scheduledAt);
  return {
    room,
    buyers,
    firstAnswer: summarizeLatencies(first),
    waitedOver1s: first.filter((ms) => ms > 1000).length,
    unanswered: buyers.length - answered.length,
    // From the room's admission to the grant's answer, for the buyers granted.
    admittedToGrant: summarizeLatencies(
      buyers.flatMap((b) => (b.outcome === '200' && b.admittedAt && b.outcomeAt ? [b.outcomeAt - b.admittedAt] : [])),
    ),
    audit: await api.audit(coupon.id),
  };
}

/** Held when both sold exactly the stock, and with the room the p99 first answer came sooner and fewer waited over 1 s. */
export function t0Lesson(s: T0Settings, bare: T0Run, room: T0Run) {
  const exact = (r: T0Run) => r.audit.grants === s.stock && r.audit.oversold === 0;
  const p99 = (r: T0Run) => r.firstAnswer?.p99 ?? Infinity;
  const text =
    `At T0, ${s.buyers} buyers arriving within ${(s.buyers * s.everyMs) / 1000} s for ${s.stock} units: ` +
    `without a room the p99 buyer heard nothing for ${p99(bare)} ms and ${bare.waitedOver1s} waited over 1 s; ` +
    `with a room of ${s.room.admitPerSec}/s every buyer had a position within p99 ${p99(room)} ms ` +
    `(${room.waitedOver1s} over 1 s), and the admitted ones a grant within p99 ${room.admittedToGrant?.p99 ?? '-'} ms.`;
  const held = exact(bare) && exact(room) && p99(room) < p99(bare) && room.waitedOver1s < bare.waitedOver1s;
  return { id: 'room-answers-at-once', text, held };
}

export function renderT0(s: T0Settings, runs: readonly T0Run[]): string[] {
  const [bare, room] = [runs.find((r) => !r.room), runs.find((r) => r.room)];
  const lesson = bare && room && t0Lesson(s, bare, room);
  return [
    `T0: ${s.buyers} buyers, one every ${s.everyMs} ms, for ${s.stock} units (${s.strategy}, workMs ${s.workMs}); ` +
      'each sent at its time whatever the answers before it, as a crowd does (open loop)',
    ...runs.map(
      (r) =>
        `${r.room ? `with a room of ${s.room.admitPerSec}/s` : 'without a room'}: ` +
        `first answer p50 ${r.firstAnswer?.p50 ?? '-'} ms, p99 ${r.firstAnswer?.p99 ?? '-'} ms; ` +
        `${r.waitedOver1s} waited over 1 s, ${r.unanswered} unanswered; audit ${JSON.stringify(r.audit)}`,
    ),
    ...(lesson ? [`lesson: ${lesson.text} ${lesson.held ? 'Held.' : 'Not held.'}`] : []),
  ];
}

export type T0Run = Awaited<ReturnType<typeof runT0>>;
