import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A coupon campaign. Its stock lives in `stock_segments` (one row unless split). */
@Entity({ name: 'coupons' })
export class CouponEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'initial_stock', type: 'integer' })
  initialStock: number;

  @Column({ type: 'smallint', default: 1 })
  segments: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
