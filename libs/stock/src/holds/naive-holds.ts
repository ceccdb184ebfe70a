import type { Grant } from '@app/contract';
import type { StockDatabase } from '../database/stock-database';
import { HoldExpiredError } from '../stock.errors';
import { confirmSql } from './hold-sql';

/** The textbook confirm's write: no condition, the application checked the hold before. */
const NAIVE_CONFIRM_SQL = confirmSql('');

const DUE_SQL = `
  SELECT id::text AS id, coupon_id AS "couponId", segment FROM holds
   WHERE naive AND state = 'held' AND expires_at <= clock_timestamp()`;

/**
 * The textbook path of a hold (holds=naive), kept to reproduce its races: the expiry reads the due
 * holds, then writes each unit back and marks the hold, in separate statements and with no claim;
 * the confirm checks the deadline in the application, then writes without a condition. A confirm
 * whose payment outlasts the deadline then sells a unit that the expiry also gave back.
 */
export class NaiveHolds {
  constructor(private readonly db: StockDatabase) {}

  /** The application's check: the state read, the deadline against this process's clock. */
  check(holdId: string, hold: { state: string; expiresAtMs: number }): void {
    if (hold.state !== 'held' || hold.expiresAtMs <= Date.now()) throw new HoldExpiredError(holdId);
  }

  async write(couponId: number, holdId: string, replica: string): Promise<Grant> {
    const [grant] = await this.db.query<Grant>(NAIVE_CONFIRM_SQL, [couponId, holdId, replica]);
    return grant;
  }

  /** Gives back the unit of every due naive hold; returns how many it gave back. */
  async expire(): Promise<number> {
    const due = await this.db.query<{ id: string; couponId: number; segment: number }>(DUE_SQL);
    for (const hold of due) {
      await this.db.query('UPDATE stock_segments SET stock = stock + 1 WHERE coupon_id = $1 AND idx = $2', [
        hold.couponId,
        hold.segment,
      ]);
      await this.db.query(
        `UPDATE holds SET state = 'expired', settled_at = clock_timestamp(), returned = returned + 1 WHERE id = $1`,
        [hold.id],
      );
    }
    return due.length;
  }
}
