import { Injectable } from '@nestjs/common';
import type { Audit, Coupon, CouponWithGrants, Grant, RoomSettings } from '@app/contract';
import { splitStock } from './split-stock';
import { StockDatabase, type RunQuery } from './database/stock-database';
import { broadcastReset } from './sold-out/reset-broadcast';
import { StockListener } from './sold-out/stock-listener';
import { CouponNotFoundError, GrantNotFoundError } from './stock.errors';

const COUPON_SQL = `
  SELECT c.id, c.name, c.initial_stock AS "initialStock", c.segments,
         COALESCE((SELECT SUM(stock) FROM stock_segments s WHERE s.coupon_id = c.id), 0)::int AS stock,
         (SELECT COUNT(*) FROM grants g WHERE g.coupon_id = c.id)::int AS grants
    FROM coupons c WHERE c.id = $1`;

// Sweep over entry (+1) and exit (−1) events per stock row; at equal times exits go first, so
// a section that starts exactly when another ends does not count as an overlap.
const MAX_HOLDERS_SQL = `
  WITH events AS (
    SELECT segment, entered_at AS at, 1 AS delta FROM grants WHERE coupon_id = $1
    UNION ALL
    SELECT segment, left_at, -1 FROM grants WHERE coupon_id = $1
  )
  SELECT COALESCE(MAX(holders), 0)::int AS max FROM (
    SELECT SUM(delta) OVER (PARTITION BY segment ORDER BY at, delta ROWS UNBOUNDED PRECEDING) AS holders FROM events
  ) running`;

// A batch's grants share one statement; a grant without a batch had a statement of its own.
const STATEMENTS_SQL = `
  SELECT (COUNT(DISTINCT batch_id) + COUNT(*) FILTER (WHERE batch_id IS NULL))::int AS statements
    FROM grants WHERE coupon_id = $1`;

export const GRANT_COLUMNS = `user_id AS "userId", replica, strategy, segment, fence_token::float8 AS "fenceToken",
         to_char(entered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "enteredAt",
         to_char(left_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "leftAt",
         to_char(accepted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "acceptedAt"`;
const GRANTS_SQL = `SELECT ${GRANT_COLUMNS} FROM grants WHERE coupon_id = $1 ORDER BY entered_at, id`;
const GRANT_SQL = `SELECT ${GRANT_COLUMNS} FROM grants WHERE coupon_id = $1 AND user_id = $2`;

/** Coupons, their stock rows and what the database says happened to them. */
@Injectable()
export class CouponsService {
  constructor(
    private readonly db: StockDatabase,
    private readonly listener: StockListener,
  ) {}

  create(name: string, stock: number, segments: number, room?: RoomSettings): Promise<Coupon> {
    return this.db.transaction(async (query) => {
      const [row] = await query<{ id: number }>(
        `INSERT INTO coupons (name, initial_stock, segments, room_admit_per_sec, room_window_ms)
         VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [name, stock, segments, room?.admitPerSec ?? null, room?.windowMs ?? null],
      );
      await insertSegments(query, row.id, stock, segments);
      return { id: row.id, name, stock, initialStock: stock, segments, ...(room ? { room } : {}) };
    });
  }

  /** The coupon's waiting room (null: it has none) and its stock now. */
  async room(id: number): Promise<{ settings: RoomSettings | null; stock: number }> {
    const [row] = await this.db.query<{ admitPerSec: number | null; windowMs: number | null; stock: number }>(
      `SELECT room_admit_per_sec AS "admitPerSec", room_window_ms AS "windowMs",
              COALESCE((SELECT SUM(stock) FROM stock_segments s WHERE s.coupon_id = c.id), 0)::int AS stock
         FROM coupons c WHERE c.id = $1`,
      [id],
    );
    if (!row) throw new CouponNotFoundError(id);
    const { admitPerSec, windowMs, stock } = row;
    return { settings: admitPerSec && windowMs ? { admitPerSec, windowMs } : null, stock };
  }

  /**
   * Back to `stock` with no grants, in a new counter epoch (orders accepted before are refused);
   * the caller clears the coupon's Redis keys. Answers only once every process has forgotten that
   * the coupon was sold out.
   */
  reset(id: number, stock: number, segments?: number): Promise<Coupon> {
    return broadcastReset(this.db, this.listener, id, async (query) => {
      const [row] = await query<{ name: string; segments: number }>(
        'UPDATE coupons SET initial_stock = $2, segments = COALESCE($3, segments), counter_epoch = counter_epoch + 1 WHERE id = $1 RETURNING name, segments',
        [id, stock, segments ?? null],
      );
      if (!row) throw new CouponNotFoundError(id);
      await query('DELETE FROM grants WHERE coupon_id = $1', [id]);
      await query('DELETE FROM holds WHERE coupon_id = $1', [id]);
      await query('DELETE FROM stock_segments WHERE coupon_id = $1', [id]);
      await insertSegments(query, id, stock, row.segments);
      return { id, name: row.name, stock, initialStock: stock, segments: row.segments };
    });
  }

  async get(id: number, query: RunQuery = this.db.query): Promise<CouponWithGrants> {
    const [row] = await query<CouponWithGrants>(COUPON_SQL, [id]);
    if (!row) throw new CouponNotFoundError(id);
    return row;
  }

  /** `query`: a snapshot's, when the audit must agree with other figures read beside it. */
  async audit(id: number, query: RunQuery = this.db.query): Promise<Audit> {
    const coupon = await this.get(id, query);
    const [{ max }] = await query<{ max: number }>(MAX_HOLDERS_SQL, [id]);
    const [{ statements }] = await query<{ statements: number }>(STATEMENTS_SQL, [id]);
    return {
      initialStock: coupon.initialStock,
      stock: coupon.stock,
      grants: coupon.grants,
      oversold: Math.max(0, coupon.grants - coupon.initialStock),
      lostUpdates: coupon.grants - (coupon.initialStock - coupon.stock),
      maxConcurrentHolders: max,
      statements,
    };
  }

  async grants(id: number): Promise<Grant[]> {
    await this.get(id);
    return this.db.query<Grant>(GRANTS_SQL, [id]);
  }

  /** One user's grant: how a buyer whose answer was lost learns whether it got the coupon. */
  async grant(id: number, userId: string): Promise<Grant> {
    const [grant] = await this.db.query<Grant>(GRANT_SQL, [id, userId]);
    if (grant) return grant;
    await this.get(id); // COUPON.NOT_FOUND before GRANT.NOT_FOUND
    throw new GrantNotFoundError(id, userId);
  }

  /** Of `userIds`, those who hold a grant of the coupon. */
  async grantedUsers(id: number, userIds: readonly string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const rows = await this.db.query<{ userId: string }>(
      'SELECT user_id AS "userId" FROM grants WHERE coupon_id = $1 AND user_id = ANY($2::varchar[])',
      [id, userIds],
    );
    return new Set(rows.map((r) => r.userId));
  }

  /**
   * redis-stream: each persisted order's time from acceptance (Redis's clock, carried in the order)
   * to its grant row's commit-side time (the database's clock), in ms. Both clocks are this host's.
   */
  async acceptToDurableMs(id: number): Promise<number[]> {
    const rows = await this.db.query<{ ms: number }>(
      `SELECT EXTRACT(EPOCH FROM (left_at - accepted_at))::float8 * 1000 AS ms
         FROM grants WHERE coupon_id = $1 AND accepted_at IS NOT NULL`,
      [id],
    );
    return rows.map((r) => r.ms);
  }
}

async function insertSegments(query: RunQuery, couponId: number, stock: number, segments: number): Promise<void> {
  await query(
    `INSERT INTO stock_segments (coupon_id, idx, stock, initial_stock)
     SELECT $1, i - 1, s, s FROM unnest($2::int[]) WITH ORDINALITY AS t(s, i)`,
    [couponId, splitStock(stock, segments)],
  );
}
