import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The epoch of a coupon's Redis counter (redis-lua, redis-stream). A reset, and each load of the
 * counter from the stock of record, starts a new one. A redis-stream order carries the epoch it was
 * accepted in, and its persist grants it only while that epoch is still the coupon's: an order of
 * the sale before a reset, or one accepted on a counter Redis has since lost and reloaded, is
 * refused by the database instead of being granted on stock it was never counted against.
 */
export class CounterEpochs1764300000000 implements MigrationInterface {
  name = 'CounterEpochs1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE coupons ADD COLUMN counter_epoch bigint NOT NULL DEFAULT 0');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE coupons DROP COLUMN counter_epoch');
  }
}
