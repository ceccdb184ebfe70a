/** Holds (docs/api.md, docs/holds.md): a unit reserved for a buyer until its deadline, then confirmed, cancelled or expired. */

/** The range of `holdMs`, and the deadline a hold gets without one. */
export const HOLD_MS = { min: 100, max: 3_600_000, default: 60_000 } as const;

/** 201 of POST /coupons/:id/holds. */
export interface Hold {
  /** Digits: the hold's id, the capability its buyer confirms or cancels with. */
  readonly holdId: string;
  readonly couponId: number;
  readonly userId: string;
  /** ISO 8601, UTC, the deadline on the database's clock. */
  readonly expiresAt: string;
}

/** 200 of POST /coupons/:id/holds/:holdId/cancel. */
export interface HoldCancelled {
  readonly holdId: string;
  readonly state: 'cancelled';
}

/** The audit's hold figures, present once the coupon has holds: initial = stock + held + confirmed when exact. */
export interface HoldFigures {
  /** Holds still open: their units are out of the stock, not yet sold. */
  readonly held: number;
  /** Grants made by a confirm. */
  readonly confirmed: number;
  readonly expired: number;
  readonly cancelled: number;
}

/**
 * Chaos options of the holds (honoured only with CHAOS_ENABLED=true). `holds: 'naive'` on the hold's
 * creation puts that hold on the textbook path for its whole life; `raceExpiry` on a confirm stalls
 * its payment, after whatever checks the path makes and before its write, until the hold's expiry ran.
 */
export interface HoldOptions {
  readonly holds?: 'naive';
  readonly raceExpiry?: boolean;
}

/** The query string of a hold call: only the options given, flags as `1`. */
export function holdQuery(options: HoldOptions): string {
  const query = new URLSearchParams();
  if (options.holds) query.set('holds', options.holds);
  if (options.raceExpiry) query.set('raceExpiry', '1');
  const text = query.toString();
  return text ? `?${text}` : '';
}
