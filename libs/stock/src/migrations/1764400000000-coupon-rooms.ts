import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A coupon's waiting room: its pace and admission window, kept with the coupon so that a Redis that
 * restarts (and forgets the room's tickets) still knows the coupon has a room and what it is.
 * Both null: no room.
 */
export class CouponRooms1764400000000 implements MigrationInterface {
  name = 'CouponRooms1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE coupons
      ADD COLUMN room_admit_per_sec integer CHECK (room_admit_per_sec BETWEEN 1 AND 100000),
      ADD COLUMN room_window_ms integer CHECK (room_window_ms BETWEEN 1000 AND 600000),
      ADD CONSTRAINT coupons_room_whole CHECK ((room_admit_per_sec IS NULL) = (room_window_ms IS NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE coupons DROP COLUMN room_admit_per_sec, DROP COLUMN room_window_ms');
  }
}
