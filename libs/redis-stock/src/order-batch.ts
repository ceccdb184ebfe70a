import {
  isOrderDataError,
  StockUnavailableError,
  type OrdersPersisted,
  type Refusal,
  type StreamOrder,
} from '@app/stock';

/** Writes a batch of one coupon's orders as grants, in one statement (one commit). */
export type WriteOrders = (orders: readonly StreamOrder[]) => Promise<OrdersPersisted>;

/** What the statements of one delivered batch did. */
export interface BatchOutcome {
  /** Orders that hold their grant now (this delivery's statements, or an earlier delivery's). */
  readonly granted: Set<string>;
  /** Orders a committed statement did not grant: orderId → why the database refused it. */
  readonly refused: Map<string, Refusal>;
  /** Orders whose statement, holding them alone, failed: orderId → the error's message. */
  readonly failed: Map<string, string>;
  /** Grant rows inserted. */
  inserted: number;
  /**
   * Set when a statement failed for any reason but the data of its orders (the database slow, out of
   * reach, or failing as a whole): the orders not written yet wait for it.
   */
  unavailable?: StockUnavailableError;
}

/**
 * Writes the orders in one statement; when it fails for the data of its orders (SQLSTATE class 22
 * or 23: isOrderDataError), splits the batch in halves and writes each, down to single orders, so
 * one poison order fails alone and the others are granted. Any other failure is the database's:
 * the batch stops, nothing counted against its orders. `mayStart` is asked before every
 * statement: once it says no, the orders left stay unwritten (they are retried later).
 */
export async function writeIsolating(
  write: WriteOrders,
  orders: readonly StreamOrder[],
  mayStart: () => boolean,
  random: () => number = Math.random,
): Promise<BatchOutcome> {
  const outcome: BatchOutcome = { granted: new Set(), refused: new Map(), failed: new Map(), inserted: 0 };
  const pass = async (part: readonly StreamOrder[]): Promise<void> => {
    if (part.length === 0 || outcome.unavailable || !mayStart()) return;
    try {
      const persisted = await write(part);
      outcome.inserted += persisted.inserted;
      for (const o of part) {
        if (persisted.granted.has(o.orderId)) outcome.granted.add(o.orderId);
        else outcome.refused.set(o.orderId, persisted.refused.get(o.orderId) ?? 'sold-out');
      }
    } catch (error) {
      // Only the data of the orders is their fault; anything else waits for the database.
      if (!isOrderDataError(error))
        outcome.unavailable =
          error instanceof StockUnavailableError ? error : new StockUnavailableError({ cause: error });
      else if (part.length === 1) outcome.failed.set(part[0].orderId, (error as Error)?.message ?? String(error));
      else {
        // Halves in a random order: when the time to start statements runs out before the poison
        // order is alone, each delivery still has an even chance to grant a good half first.
        const half = Math.ceil(part.length / 2);
        const halves = [part.slice(0, half), part.slice(half)];
        if (random() < 0.5) halves.reverse();
        for (const h of halves) await pass(h);
      }
    }
  };
  await pass(orders);
  return outcome;
}

/** Why an order was given up, as the dead letter and the buyer's lookup tell it. */
export const GIVE_UP_REASONS: Readonly<Record<Refusal | 'malformed', string>> = Object.freeze({
  superseded: 'superseded: accepted before the coupon was reset or its counter reloaded',
  'sold-out': 'refused by the database: no stock of record left for it',
  duplicate: 'refused by the database: the user holds a grant already',
  malformed: 'its stream entry is malformed',
});

/** A failure of an order's own, and how many of them give it up. */
export interface OrderFailure {
  readonly orderId: string;
  readonly limit: number;
  readonly reason: string;
  /**
   * Why a committed statement refused it, if one did: a superseded or sold-out order never gives
   * its unit back (the counter never counted it, or counted a unit the stock of record did not
   * have), and a duplicate's user stays a buyer (it holds a grant).
   */
  readonly refusal?: Refusal;
}

/**
 * The failures a delivery counts: a refusal by a committed statement and a malformed entry give
 * the order up at once (a retry changes neither); a failed statement of its own, at `maxFailures`.
 */
export function failuresOf(outcome: BatchOutcome, malformed: readonly string[], maxFailures: number): OrderFailure[] {
  const once = (orderId: string, why: Refusal | 'malformed'): OrderFailure => ({
    orderId,
    limit: 1,
    reason: GIVE_UP_REASONS[why],
    ...(why === 'malformed' ? {} : { refusal: why }),
  });
  return [
    ...[...outcome.refused].map(([orderId, why]) => once(orderId, why)),
    ...[...outcome.failed].map(([orderId, message]) => ({
      orderId,
      limit: maxFailures,
      reason: message,
    })),
    ...malformed.map((orderId) => once(orderId, 'malformed')),
  ];
}
