import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE coupons (
        id            serial PRIMARY KEY,
        name          varchar(100) NOT NULL,
        initial_stock integer NOT NULL CHECK (initial_stock >= 0),
        segments      smallint NOT NULL DEFAULT 1 CHECK (segments BETWEEN 1 AND 64),
        created_at    timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE stock_segments (
        coupon_id     integer NOT NULL REFERENCES coupons(id) ON DELETE CASCADE,
        idx           smallint NOT NULL,
        stock         integer NOT NULL CHECK (stock >= 0),
        initial_stock integer NOT NULL,
        fence         bigint NOT NULL DEFAULT 0,
        version       integer NOT NULL DEFAULT 0,
        PRIMARY KEY (coupon_id, idx)
      )`);
    await q.query(`
      CREATE TABLE grants (
        id          bigserial PRIMARY KEY,
        coupon_id   integer NOT NULL REFERENCES coupons(id) ON DELETE CASCADE,
        segment     smallint NOT NULL,
        user_id     varchar(64) NOT NULL,
        strategy    varchar(32) NOT NULL,
        replica     varchar(64) NOT NULL,
        fence_token bigint,
        entered_at  timestamptz NOT NULL,
        left_at     timestamptz NOT NULL,
        CONSTRAINT grants_one_per_user UNIQUE (coupon_id, user_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE grants');
    await q.query('DROP TABLE stock_segments');
    await q.query('DROP TABLE coupons');
  }
}
