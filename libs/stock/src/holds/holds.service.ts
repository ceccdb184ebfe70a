import { Injectable } from '@nestjs/common';
import type { Audit, Grant, Hold, HoldCancelled, HoldFigures } from '@app/contract';
import { CouponsService } from '../coupons.service';
import { StockDatabase } from '../database/stock-database';
import { isUniqueViolation } from '../pg-errors';
import {
  DuplicateGrantError,
  GrantNotFoundError,
  HoldCancelledError,
  HoldConfirmedError,
  HoldExpiredError,
  HoldNotFoundError,
  SoldOutError,
} from '../stock.errors';
import {
  CANCEL_SQL,
  CONFIRM_SQL,
  EXPIRE_SQL,
  HOLD_FIGURES_SQL,
  HOLD_GRANT_SQL,
  HOLD_SQL,
  OPEN_HOLD_SQL,
} from './hold-sql';
import { NaiveHolds } from './naive-holds';

/** A call on one hold; `userId`, when given, must be the hold's buyer (else the hold is not found). */
export interface HoldCall {
  readonly couponId: number;
  readonly holdId: string;
  readonly userId?: string;
}

interface HoldRow {
  readonly userId: string;
  readonly state: 'held' | 'confirmed' | 'cancelled' | 'expired';
  readonly naive: boolean;
  readonly due: boolean;
  readonly expiresAtMs: number;
}

/** How long a raced confirm waits at most for the hold's expiry before it goes on anyway. */
const RACE_WAIT_MS = 30_000;
const RACE_POLL_MS = 10;

/** Holds: a unit reserved for a buyer until its deadline, then confirmed, cancelled or expired. */
@Injectable()
export class HoldsService {
  private readonly naive: NaiveHolds;

  constructor(
    private readonly db: StockDatabase,
    private readonly coupons: CouponsService,
  ) {
    this.naive = new NaiveHolds(db);
  }

  /** Takes a unit for `userId` until `holdMs` from now (database clock); `naive` puts the hold on the textbook path. */
  async open(couponId: number, userId: string, holdMs: number, naive = false): Promise<Hold> {
    let rows: { holdId: string; expiresAt: string }[];
    try {
      rows = await this.db.query(OPEN_HOLD_SQL, [couponId, userId, holdMs, naive]);
    } catch (error) {
      if (isUniqueViolation(error, 'holds_one_open_per_user')) throw new DuplicateGrantError(couponId, userId);
      throw error;
    }
    if (rows.length) return { holdId: rows[0].holdId, couponId, userId, expiresAt: rows[0].expiresAt };
    const grant = await this.coupons.grant(couponId, userId).catch((error: unknown) => {
      if (error instanceof GrantNotFoundError) return undefined;
      throw error; // COUPON.NOT_FOUND
    });
    if (!grant) throw new SoldOutError(couponId);
    const duplicate = new DuplicateGrantError(couponId, userId);
    duplicate.grant = grant;
    throw duplicate;
  }

  /**
   * The hold becomes a grant if it is open and before its deadline; a confirmed hold answers its
   * grant again. `raceExpiry` (chaos) stalls the payment until the hold's expiry ran.
   */
  async confirm(call: HoldCall, replica: string, raceExpiry = false): Promise<Grant> {
    const hold = await this.find(call);
    if (hold.state !== 'held') return this.settled(call.holdId, hold);
    if (hold.naive) this.naive.check(call.holdId, hold);
    if (raceExpiry) await this.untilSettled(call);
    try {
      if (hold.naive) return await this.naive.write(call.couponId, call.holdId, replica);
      const [grant] = await this.db.query<Grant>(CONFIRM_SQL, [call.couponId, call.holdId, replica]);
      if (grant) return grant;
    } catch (error) {
      if (isUniqueViolation(error, 'grants_one_per_user')) throw new DuplicateGrantError(call.couponId, hold.userId);
      throw error;
    }
    return this.settled(call.holdId, await this.find(call));
  }

  /** The hold is closed and its unit given back if it is open and before its deadline; a cancelled hold answers again. */
  async cancel(call: HoldCall): Promise<HoldCancelled> {
    await this.find(call);
    const rows = await this.db.query(CANCEL_SQL, [call.couponId, call.holdId]);
    const hold = rows.length ? undefined : await this.find(call);
    if (hold?.state === 'confirmed') throw new HoldConfirmedError(call.holdId);
    if (hold && hold.state !== 'cancelled') throw new HoldExpiredError(call.holdId);
    return { holdId: call.holdId, state: 'cancelled' };
  }

  /** Expires up to `batch` due holds of the exact path; returns how many. */
  async expireDue(batch: number): Promise<number> {
    const [{ expired }] = await this.db.query<{ expired: number }>(EXPIRE_SQL, [batch]);
    return expired;
  }

  /** Expires the due holds of the textbook path, its way. */
  expireNaive(): Promise<number> {
    return this.naive.expire();
  }

  /**
   * The coupon's audit with its hold figures once it has holds, read in one snapshot: a sweep that
   * commits between two reads would otherwise show its holds expired but not their units back.
   */
  audit(couponId: number): Promise<Audit & Partial<HoldFigures>> {
    return this.db.snapshot(async (query) => {
      const audit = await this.coupons.audit(couponId, query);
      const [row] = await query<HoldFigures & { holds: number }>(HOLD_FIGURES_SQL, [couponId]);
      if (!row.holds) return audit;
      return { ...audit, held: row.held, confirmed: row.confirmed, expired: row.expired, cancelled: row.cancelled };
    });
  }

  private async find(call: HoldCall): Promise<HoldRow> {
    const [hold] = await this.db.query<HoldRow>(HOLD_SQL, [call.couponId, call.holdId]);
    if (!hold || (call.userId !== undefined && call.userId !== hold.userId))
      throw new HoldNotFoundError(call.couponId, call.holdId);
    return hold;
  }

  /** What a confirm of a hold no longer open answers: its grant again, or why not. */
  private async settled(holdId: string, hold: HoldRow): Promise<Grant> {
    if (hold.state === 'cancelled') throw new HoldCancelledError(holdId);
    if (hold.state !== 'confirmed') throw new HoldExpiredError(holdId); // expired, or open past its deadline
    const [grant] = await this.db.query<Grant>(HOLD_GRANT_SQL, [holdId]);
    return grant;
  }

  /** Waits until the hold is no longer open, as its row says (bounded by RACE_WAIT_MS). */
  private async untilSettled(call: HoldCall): Promise<void> {
    const giveUpAt = Date.now() + RACE_WAIT_MS;
    while ((await this.find(call)).state === 'held' && Date.now() < giveUpAt) {
      await new Promise((resolve) => setTimeout(resolve, RACE_POLL_MS));
    }
  }
}
