import type { Audit } from '@app/contract';
import type { Check } from './invariants';

/** One buyer's hold and what its confirm got (`status` 0: no answer came). */
export interface HoldRecord {
  readonly holdId: string;
  readonly userId: string;
  /** Undefined when no confirm was sent (the hold was left to expire). */
  readonly confirm?: { readonly status: number; readonly code?: string };
}

/** What a holds run observed: the client's answers, and the database once no hold was held. */
export interface HoldsObserved {
  readonly audit: Audit;
  /** From the hold and grant rows (`holdOutcomes`). */
  readonly outcomes: {
    readonly twoOutcomes: number;
    readonly returnedTwice: number;
    readonly granted: ReadonlySet<string>;
  };
  readonly holds: readonly HoldRecord[];
  /** Per hold, in the same order: whether its buyer's `GET /coupons/:id/grants/:userId` found a grant. */
  readonly lookups: readonly boolean[];
  /** A replica was killed: a confirm in flight on it may get no answer, or nginx's 502. */
  readonly killsReplica: boolean;
  /** How the fault met the holds (confirms it left unanswered, holds that came due while it lasted); 0: it missed them. */
  readonly faultMet: { readonly count: number; readonly what: string };
}

/**
 * Answers a confirm may get in this run, where each hold is its own buyer's and none is cancelled:
 * 200, 409 HOLD.EXPIRED (it came too late), 503 DEPENDENCY.UNAVAILABLE; with a replica killed, none
 * or a 502. Any other code is a bug, not the fault.
 */
export function withinContract(status: number, code: string | undefined, killsReplica: boolean): boolean {
  if (status === 200) return true;
  if (status === 409 && code === 'HOLD.EXPIRED') return true;
  if (status === 503 && code === 'DEPENDENCY.UNAVAILABLE') return true;
  return killsReplica && (status === 0 || status === 502);
}

const some = (ids: readonly string[]) => `${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}`;

/** Every invariant of holds under a fault, each with the figures that decide it. */
export function checkHoldInvariants(o: HoldsObserved): Check[] {
  const { audit, outcomes } = o;
  const held = audit.held ?? 0;
  const accounted = audit.stock + held + (audit.confirmed ?? 0);
  const confirmed = o.holds.filter((h) => h.confirm?.status === 200);
  const lost = confirmed.filter((h) => !outcomes.granted.has(h.holdId)).map((h) => h.holdId);
  const disagree = o.holds.filter((h, i) => o.lookups[i] !== outcomes.granted.has(h.holdId)).map((h) => h.userId);
  const outside = o.holds.filter((h) => h.confirm && !withinContract(h.confirm.status, h.confirm.code, o.killsReplica));
  return [
    { name: 'no hold held at the end', ok: held === 0, detail: `${held} held` },
    {
      name: 'stock + held + confirmed = initial stock',
      ok: accounted === audit.initialStock,
      detail: `${audit.stock} + ${held} + ${audit.confirmed ?? 0} vs ${audit.initialStock}`,
    },
    {
      name: 'no hold with two outcomes',
      ok: outcomes.twoOutcomes === 0,
      detail: `${outcomes.twoOutcomes} both confirmed and returned`,
    },
    {
      name: 'no unit returned twice',
      ok: outcomes.returnedTwice === 0,
      detail: `${outcomes.returnedTwice} returned more than once`,
    },
    {
      name: 'every confirm answered 200 is a grant in the database',
      ok: lost.length === 0,
      detail: lost.length ? `no grant for hold ${some(lost)}` : `${confirmed.length} of ${confirmed.length}`,
    },
    {
      name: "every buyer's lookup agrees with the database",
      ok: disagree.length === 0,
      detail: disagree.length ? `disagreeing: ${some(disagree)}` : `${o.holds.length} of ${o.holds.length}`,
    },
    {
      name: 'every confirm answered within the contract',
      ok: outside.length === 0,
      detail: outside.length
        ? `outside: ${[...new Set(outside.map((h) => `${h.confirm!.status} ${h.confirm!.code ?? ''}`.trim()))].join(', ')}`
        : `${o.holds.filter((h) => h.confirm).length} confirms`,
    },
    { name: 'the fault met the holds', ok: o.faultMet.count > 0, detail: `${o.faultMet.count} ${o.faultMet.what}` },
  ];
}
