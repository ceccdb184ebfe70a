import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Holds: a unit taken from the stock for a buyer until `expires_at` (database clock), then
 * confirmed (a grant, carrying `hold_id`), cancelled or expired (the unit back in stock).
 * `returned` counts the units given back for the hold: more than one is a unit returned twice.
 * `naive` holds take the textbook path (holds=naive), kept to reproduce its races.
 */
export class Holds1764200000000 implements MigrationInterface {
  name = 'Holds1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE holds (
        id          bigserial PRIMARY KEY,
        coupon_id   integer NOT NULL REFERENCES coupons(id) ON DELETE CASCADE,
        segment     smallint NOT NULL,
        user_id     varchar(64) NOT NULL,
        state       varchar(9) NOT NULL DEFAULT 'held'
                    CHECK (state IN ('held', 'confirmed', 'cancelled', 'expired')),
        naive       boolean NOT NULL DEFAULT false,
        created_at  timestamptz NOT NULL,
        expires_at  timestamptz NOT NULL,
        settled_at  timestamptz,
        returned    smallint NOT NULL DEFAULT 0
      )`);
    await q.query(`CREATE UNIQUE INDEX holds_one_open_per_user ON holds (coupon_id, user_id) WHERE state = 'held'`);
    await q.query(`CREATE INDEX holds_due ON holds (expires_at) WHERE state = 'held'`);
    await q.query('CREATE INDEX holds_coupon ON holds (coupon_id)');
    await q.query('ALTER TABLE grants ADD COLUMN hold_id bigint');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE grants DROP COLUMN hold_id');
    await q.query('DROP TABLE holds');
  }
}
