/**
 * The statements that grant a unit. Each writes the stock and inserts the grant in ONE statement,
 * so one implicit transaction and one round trip: the row lock the write takes is held for that
 * statement only, and a crash never leaves a decrement without its grant or the reverse. Each
 * ends by returning the coupon's stock left; the statement sees the rows from before its own
 * UPDATE, hence the written row's new value added by hand.
 */

/**
 * The first row with stock (or row $2 only): its `segment`, `stock` and `version`, and the entry
 * time on the database clock, as text (a JS Date would drop the microseconds).
 */
export const READ_STOCK_SQL = `
  SELECT idx AS segment, stock, version, clock_timestamp()::text AS at FROM stock_segments
   WHERE coupon_id = $1 AND stock > 0 AND ($2::int IS NULL OR idx = $2)
   ORDER BY idx LIMIT 1`;

/** The same read, locking the row until the transaction ends (db-for-update). */
export const READ_STOCK_FOR_UPDATE_SQL = `${READ_STOCK_SQL} FOR UPDATE`;

/**
 * fenced: the same read, registering token $3 on the row in the same statement, unless the row
 * has seen a newer one. From then on an older holder's write is refused, whichever writes first.
 */
export const READ_STOCK_FENCED_SQL = `
  UPDATE stock_segments s SET fence = $3::bigint
   WHERE s.coupon_id = $1 AND s.stock > 0 AND s.fence <= $3::bigint AND s.idx = (
     SELECT idx FROM stock_segments
      WHERE coupon_id = $1 AND stock > 0 AND ($2::int IS NULL OR idx = $2)
      ORDER BY idx LIMIT 1)
  RETURNING s.idx AS segment, s.stock, s.version, clock_timestamp()::text AS at`;

/** Whether a row of coupon $1 has seen a token newer than $2: a fenced read that found no row was stale, not sold out. */
export const NEWER_FENCE_SQL = `
  SELECT EXISTS (SELECT 1 FROM stock_segments WHERE coupon_id = $1 AND fence > $2::bigint) AS newer`;

const REMAINING = (written: string) =>
  `(SELECT COALESCE(SUM(stock), 0) FROM stock_segments WHERE coupon_id = $1 AND idx <> ${written}.idx)::int + ${written}.stock`;

/**
 * db-atomic (and redis-lua's persist): decrement the first row with stock, re-checked after the
 * row lock (`stock > 0`), and insert the grant. $1 coupon, $2 user, $3 strategy, $4 replica,
 * $5 segment or null. No row: nothing left to take.
 */
export const ATOMIC_GRANT_SQL = `
  WITH taken AS (
    UPDATE stock_segments s SET stock = s.stock - 1
     WHERE s.coupon_id = $1 AND s.stock > 0 AND s.idx = (
       SELECT idx FROM stock_segments
        WHERE coupon_id = $1 AND stock > 0 AND ($5::int IS NULL OR idx = $5)
        ORDER BY idx LIMIT 1 FOR UPDATE)
    RETURNING s.idx, s.stock, clock_timestamp() AS at),
  granted AS (
    INSERT INTO grants (coupon_id, segment, user_id, strategy, replica, entered_at, left_at)
    SELECT $1, idx, $2, $3, $4, at, clock_timestamp() FROM taken
    RETURNING segment)
  SELECT taken.idx AS segment, ${REMAINING('taken')} AS remaining FROM taken JOIN granted ON granted.segment = taken.idx`;

/**
 * The seeds' write-back, bug included: stock := $3 (the value read, minus one) as an absolute
 * value. With a fencing token $8 (registered by the fenced read) the row is written only if no
 * newer token has read or written it since, else no grant either. $1 coupon, $2 segment, $4 user,
 * $5 strategy, $6 replica, $7 entry time.
 */
export const WRITE_BACK_SQL = `
  WITH written AS (
    UPDATE stock_segments SET stock = $3, fence = COALESCE($8::bigint, fence)
     WHERE coupon_id = $1 AND idx = $2 AND ($8::bigint IS NULL OR fence <= $8::bigint)
    RETURNING idx, stock)
  INSERT INTO grants (coupon_id, segment, user_id, strategy, replica, fence_token, entered_at, left_at)
  SELECT $1, idx, $4, $5, $6, $8::bigint, $7::timestamptz, clock_timestamp() FROM written
  RETURNING (SELECT ${REMAINING('written')} FROM written) AS remaining`;

/**
 * db-optimistic: write only if the row's version is still the one read ($3), else nothing.
 * $1 coupon, $2 segment, $4 user, $5 strategy, $6 replica, $7 entry time.
 */
export const VERSIONED_WRITE_SQL = `
  WITH written AS (
    UPDATE stock_segments SET stock = stock - 1, version = version + 1
     WHERE coupon_id = $1 AND idx = $2 AND version = $3 AND stock > 0
    RETURNING idx, stock)
  INSERT INTO grants (coupon_id, segment, user_id, strategy, replica, entered_at, left_at)
  SELECT $1, idx, $4, $5, $6, $7::timestamptz, clock_timestamp() FROM written
  RETURNING (SELECT ${REMAINING('written')} FROM written) AS remaining`;
