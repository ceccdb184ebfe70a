/** A lab load through the coupon's waiting room (docs/api.md): its settings and what its buyers are doing. */

/** POST /lab/api/runs `room`: the coupon is created with a room admitting this many buyers per second. */
export interface LoadRoom {
  readonly admitPerSec: number;
}

/**
 * A buyer's states, in the order it goes through them: in line (from its join), admitted (its grab
 * on the way), then granted (200, or 202 for an accepted order) or sold out (the room or the grab
 * said so, or refused it any other way).
 */
export const BUYER_STATES = ['waiting', 'admitted', 'granted', 'sold-out'] as const;
export type BuyerState = (typeof BUYER_STATES)[number];

/** How many of a load's buyers are in each state (progress `room`): they add up to the buyers started. */
export type RoomCounts = Record<BuyerState, number>;
