/** What a batch statement adds to the shared placement. */
export interface BatchGrantParts {
  /**
   * The `asked` CTE's query: one row per user (its first ask), with `user_id`, its place `ord` in
   * the batch, and whatever `values` reads from it as `p.…`.
   */
  readonly asked: string;
  /** Grant columns besides coupon, segment, user, batch and times, each with its value. */
  readonly values: Readonly<Record<string, string>>;
  /** The column `inserted` returns besides `segment`. */
  readonly returning: string;
}

/**
 * The CTEs shared by the statements that grant a batch of one coupon in one go (db-batched,
 * redis-stream's persist), $1 the coupon; the caller appends its final SELECT. Read committed
 * makes three things matter:
 * - `locked` takes every stock row of the coupon FOR UPDATE first. Another batch holds those
 *   locks until it commits; once had, FOR UPDATE returns the rows' latest stock, whereas a plain
 *   read in this statement would see its start, before the wait.
 * - `fresh` (users without a grant) reads grants from the statement's start, so a grant committed
 *   meanwhile by another replica is missed there: ON CONFLICT DO NOTHING on the one-per-user key
 *   then skips the insert, and the stock is decremented by the grants really inserted only.
 * - `batch` aggregates over `locked`, so its entry time is taken after the locks. `taken` needs no
 *   reference: a data-modifying CTE always runs to completion.
 * The n-th fresh user gets the n-th unit (rows in index order, `placed`); users past the stock get
 * none. `batch.stock` is the stock before the statement.
 */
export function batchGrantSql({ asked, values, returning }: BatchGrantParts): string {
  const columns = Object.keys(values);
  return `
  WITH locked AS (
    SELECT idx, stock FROM stock_segments WHERE coupon_id = $1 ORDER BY idx FOR UPDATE),
  batch AS (
    SELECT nextval('grant_batches') AS id, clock_timestamp() AS at, COALESCE(SUM(stock), 0)::int AS stock FROM locked),
  asked AS (${asked}),
  fresh AS (
    SELECT a.*, row_number() OVER (ORDER BY ord) AS n FROM asked a
     WHERE NOT EXISTS (SELECT 1 FROM grants g WHERE g.coupon_id = $1 AND g.user_id = a.user_id)),
  slots AS (
    SELECT idx, SUM(stock) OVER (ORDER BY idx) AS upto FROM locked WHERE stock > 0),
  placed AS (
    SELECT f.*, (SELECT s.idx FROM slots s WHERE s.upto >= f.n ORDER BY s.idx LIMIT 1) AS idx FROM fresh f),
  inserted AS (
    INSERT INTO grants (coupon_id, segment, user_id, ${columns.join(', ')}, batch_id, entered_at, left_at)
    SELECT $1, p.idx, p.user_id, ${columns.map((c) => values[c]).join(', ')}, b.id, b.at, clock_timestamp()
      FROM placed p, batch b WHERE p.idx IS NOT NULL
    ON CONFLICT ON CONSTRAINT grants_one_per_user DO NOTHING
    RETURNING ${returning}, segment),
  taken AS (
    UPDATE stock_segments s SET stock = s.stock - c.k
      FROM (SELECT segment, COUNT(*)::int AS k FROM inserted GROUP BY segment) c
     WHERE s.coupon_id = $1 AND s.idx = c.segment
    RETURNING s.idx)`;
}
