import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Grants written together by one statement (db-batched) share a `batch_id` from `grant_batches`;
 * other strategies write one grant per statement and leave it null. The audit counts statements.
 */
export class GrantBatches1764000000000 implements MigrationInterface {
  name = 'GrantBatches1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE SEQUENCE grant_batches AS bigint');
    await q.query('ALTER TABLE grants ADD COLUMN batch_id bigint');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE grants DROP COLUMN batch_id');
    await q.query('DROP SEQUENCE grant_batches');
  }
}
