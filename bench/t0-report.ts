import type { Audit } from '@app/contract';
import type { LatencySummary } from '@app/stock';

/** What a T0 round saw, how it is judged from outside (arrival order kept, the room's pace), and its lines. */

/** T0: buyers arrive on a clock, one every `everyMs`, for `stock` units, with or without a room. */
export const T0_SETTINGS = {
  buyers: 1000,
  everyMs: 2,
  stock: 100,
  admitPerSec: 200,
  windowMs: 10_000,
  strategy: 'watchdog',
  workMs: 10,
};
export type T0Settings = typeof T0_SETTINGS;

export const OPEN_LOOP =
  'open loop: each buyer fires at its scheduled time, whatever the answers before it, as a crowd at T0 does; ' +
  'a closed loop (the next request only after an answer) slows down with the server and hides its queue';

export interface T0Run {
  readonly room: boolean;
  readonly firstAnswer: LatencySummary | null;
  /** This client's own lateness in sending each buyer's first request: part of every figure. */
  readonly clientLate: LatencySummary | null;
  /** From the moment the first request was sent to its answer: the stack's share. */
  readonly fromSent: LatencySummary | null;
  readonly polls: number;
  readonly waitedOver1s: number;
  readonly unanswered: number;
  readonly serverErrors: number;
  readonly outcomes: Record<string, number>;
  readonly lastOutcomeMs: number;
  readonly grants: number;
  readonly grantsToFirst120: number;
  /** Of the pairs of joins scheduled ≥ 50 ms apart, the share whose tickets came in the other order. */
  readonly outOfOrder: number;
  /** The most admissions the room made in any 1 s (its own times; pacing says ≤ admitPerSec). */
  readonly mostAdmittedPerSec: number;
  /** Admissions seen, and from the first to the last (ms): at the pace, no less than (n − 1) × 1000 / admitPerSec. */
  readonly admitted: number;
  readonly admitSpanMs: number;
  readonly audit: Audit;
}

/** The round's figures as lines, the why of the open loop first. */
export function renderT0(s: T0Settings, runs: readonly T0Run[]): string[] {
  const lines = [
    `T0: ${s.buyers} buyers, one every ${s.everyMs} ms, for ${s.stock} units (${s.strategy}, workMs ${s.workMs})`,
    OPEN_LOOP,
  ];
  for (const r of runs) {
    const f = r.firstAnswer;
    lines.push(
      `${r.room ? `with a room of ${s.admitPerSec}/s` : 'without a room'}: first answer p50 ${f?.p50 ?? '-'} ms, p99 ${f?.p99 ?? '-'} ms, max ${f?.max ?? '-'} ms; ${r.waitedOver1s} waited over 1 s; ${r.unanswered} unanswered; ${r.serverErrors} 5xx; this client's own lateness p99 ${r.clientLate?.p99 ?? '-'} ms, from sent to answered p99 ${r.fromSent?.p99 ?? '-'} ms`,
      `  outcomes ${JSON.stringify(r.outcomes)}, the last ${r.lastOutcomeMs} ms after its arrival; grants ${r.grants} (${r.grantsToFirst120} to the first 120 arrivals)`,
      `  audit ${JSON.stringify(r.audit)}`,
    );
    if (r.room)
      lines.push(
        `  out of order: ${(r.outOfOrder * 100).toFixed(2)}% of pairs ≥ 50 ms apart; most admitted in 1 s: ${r.mostAdmittedPerSec}; ${r.admitted} admissions over ${r.admitSpanMs} ms (the pace allows no less than ${Math.ceil(((r.admitted - 1) * 1000) / s.admitPerSec)}); ${r.polls} polls`,
      );
  }
  return lines;
}
