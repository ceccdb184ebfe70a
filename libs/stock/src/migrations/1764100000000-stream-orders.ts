import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A grant persisted from Redis's order stream (redis-stream) keeps its order's stream id and the
 * time Redis accepted it (Redis's clock), so a redelivered order is recognised by its id and the
 * accept-to-durable latency is `left_at − accepted_at`. Other strategies leave both null.
 */
export class StreamOrders1764100000000 implements MigrationInterface {
  name = 'StreamOrders1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE grants ADD COLUMN order_id varchar(32), ADD COLUMN accepted_at timestamptz');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE grants DROP COLUMN order_id, DROP COLUMN accepted_at');
  }
}
