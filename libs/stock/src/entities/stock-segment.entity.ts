import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One stock row: a coupon has `segments` of them. `fence` is the highest fencing token the row has
 * accepted; `version` serves optimistic concurrency.
 */
@Entity({ name: 'stock_segments' })
export class StockSegmentEntity {
  @PrimaryColumn({ name: 'coupon_id', type: 'integer' })
  couponId: number;

  @PrimaryColumn({ type: 'smallint' })
  idx: number;

  @Column({ type: 'integer' })
  stock: number;

  @Column({ name: 'initial_stock', type: 'integer' })
  initialStock: number;

  @Column({ type: 'bigint', default: 0 })
  fence: string;

  @Column({ type: 'integer', default: 0 })
  version: number;
}
