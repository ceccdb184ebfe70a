/** The waiting room (docs/api.md): a coupon's buyers admitted in arrival order, at a pace. */

/** The ranges of a room's settings, and the window an admitted buyer gets without one. */
export const ROOM_LIMITS = {
  admitPerSec: { min: 1, max: 100_000 },
  windowMs: { min: 1_000, max: 600_000, default: 10_000 },
} as const;

/** A coupon's room, as `POST /coupons` takes it and answers it (windowMs filled in). */
export interface RoomSettings {
  /** At most this many buyers admitted per second, in arrival order. */
  readonly admitPerSec: number;
  /** How long an admitted buyer may grab before its admission expires and the next is admitted. */
  readonly windowMs: number;
}

/** A ticket: `<number>-<secret>`, the number being the buyer's place in arrival order. */
export const TICKET = /^[1-9][0-9]{0,9}-[0-9a-f]{16}$/;

/** 202 of POST /coupons/:id/room. */
export interface RoomTicket {
  readonly ticket: string;
  /** From 1: how many tickets are ahead, plus one; 1 once admitted. */
  readonly position: number;
  /** The wait left if every admission ahead is used, at the room's pace (ms). */
  readonly etaMs: number;
}

/** 200 of GET /coupons/:id/room/:ticket. */
export type TicketState =
  | { readonly state: 'waiting'; readonly position: number; readonly etaMs: number }
  /** `until`: ms since the epoch (Redis's clock) by which the grab must come. */
  | { readonly state: 'admitted'; readonly until: number }
  | { readonly state: 'sold-out' }
  | { readonly state: 'expired' };

/**
 * The audit's room figures. Counted by the room's own Redis scripts, not read from the database:
 * a room's traffic never touches PostgreSQL, so a Redis restart forgets them (and the room's tickets).
 * `expired` counts admissions noticed past their window by a later call to the room.
 */
export interface RoomFigures {
  readonly joined: number;
  readonly admitted: number;
  readonly expired: number;
}
