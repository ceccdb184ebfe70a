import { GRANT_COLUMNS } from '../coupons.service';

/**
 * The statements of a hold's life. Each transition is ONE statement, conditional on the hold's state
 * and deadline as the database's clock reads them, that moves the unit with it: exactly one of
 * confirm, cancel and expire finds the hold open, and only that one moves its unit.
 */

const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * Takes a unit from the first stock row that has one and opens a hold on it, unless the user holds a
 * grant already. $1 coupon, $2 user, $3 holdMs, $4 naive. No row: sold out, or a grant exists.
 */
export const OPEN_HOLD_SQL = `
  WITH taken AS (
    UPDATE stock_segments s SET stock = s.stock - 1
     WHERE s.coupon_id = $1 AND s.stock > 0
       AND NOT EXISTS (SELECT 1 FROM grants WHERE coupon_id = $1 AND user_id = $2)
       AND s.idx = (SELECT idx FROM stock_segments WHERE coupon_id = $1 AND stock > 0 ORDER BY idx LIMIT 1 FOR UPDATE)
    RETURNING s.idx)
  INSERT INTO holds (coupon_id, segment, user_id, naive, created_at, expires_at)
  SELECT $1, idx, $2, $4, clock_timestamp(), clock_timestamp() + make_interval(secs => $3::float8 / 1000) FROM taken
  RETURNING id::text AS "holdId", to_char(expires_at AT TIME ZONE 'UTC', ${ISO_MS}) AS "expiresAt"`;

/** The hold as it stands: $1 coupon, $2 hold. `due`: past its deadline by the database's clock. */
export const HOLD_SQL = `
  SELECT user_id AS "userId", state, naive, expires_at <= clock_timestamp() AS due,
         (extract(epoch FROM expires_at) * 1000)::float8 AS "expiresAtMs"
    FROM holds WHERE coupon_id = $1 AND id = $2`;

/**
 * Confirm: the hold becomes a grant in one statement, when `condition` holds. The grant's section
 * is the statement itself (entered and left at once), so holds never count as concurrent holders.
 * $1 coupon, $2 hold, $3 replica.
 */
export const confirmSql = (condition: string) => `
  WITH confirmed AS (
    UPDATE holds SET state = 'confirmed', settled_at = clock_timestamp()
     WHERE coupon_id = $1 AND id = $2 ${condition}
    RETURNING id, coupon_id, segment, user_id, settled_at)
  INSERT INTO grants (coupon_id, segment, user_id, strategy, replica, entered_at, left_at, hold_id)
  SELECT coupon_id, segment, user_id, 'hold', $3, settled_at, settled_at, id FROM confirmed
  RETURNING ${GRANT_COLUMNS}`;

/** The confirm of the exact path: an open hold, before its deadline. */
export const CONFIRM_SQL = confirmSql(`AND state = 'held' AND expires_at > clock_timestamp()`);

/** The grant a hold's confirm made: $1 hold. */
export const HOLD_GRANT_SQL = `SELECT ${GRANT_COLUMNS} FROM grants WHERE hold_id = $1`;

/** Cancel: an open hold before its deadline is closed and its unit given back, in one statement. $1 coupon, $2 hold. */
export const CANCEL_SQL = `
  WITH cancelled AS (
    UPDATE holds SET state = 'cancelled', settled_at = clock_timestamp(), returned = returned + 1
     WHERE coupon_id = $1 AND id = $2 AND state = 'held' AND expires_at > clock_timestamp()
    RETURNING coupon_id, segment)
  UPDATE stock_segments s SET stock = s.stock + 1 FROM cancelled c
   WHERE s.coupon_id = c.coupon_id AND s.idx = c.segment
  RETURNING s.idx`;

/**
 * Expire: claims up to $1 open holds past their deadline, skipping those another sweeper or a
 * confirm has locked, closes them and gives their units back, in one statement. Returns how many.
 */
export const EXPIRE_SQL = `
  WITH due AS (
    SELECT id FROM holds
     WHERE state = 'held' AND NOT naive AND expires_at <= clock_timestamp()
     ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED),
  expired AS (
    UPDATE holds h SET state = 'expired', settled_at = clock_timestamp(), returned = h.returned + 1
      FROM due WHERE h.id = due.id AND h.state = 'held'
    RETURNING h.coupon_id, h.segment),
  back AS (
    UPDATE stock_segments s SET stock = s.stock + r.n
      FROM (SELECT coupon_id, segment, COUNT(*)::int AS n FROM expired GROUP BY coupon_id, segment) r
     WHERE s.coupon_id = r.coupon_id AND s.idx = r.segment
    RETURNING r.n)
  SELECT COALESCE(SUM(n), 0)::int AS expired FROM back`;

/** The audit's hold figures of coupon $1; `holds` 0 means the coupon never had one. */
export const HOLD_FIGURES_SQL = `
  SELECT COUNT(*)::int AS holds,
         (COUNT(*) FILTER (WHERE state = 'held'))::int AS held,
         (SELECT COUNT(*) FROM grants WHERE coupon_id = $1 AND hold_id IS NOT NULL)::int AS confirmed,
         (COUNT(*) FILTER (WHERE state = 'expired'))::int AS expired,
         (COUNT(*) FILTER (WHERE state = 'cancelled'))::int AS cancelled
    FROM holds WHERE coupon_id = $1`;
