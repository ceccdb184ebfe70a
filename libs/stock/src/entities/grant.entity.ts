import { Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** One coupon handed to one user; its timestamps come from the database clock. */
@Entity({ name: 'grants' })
@Unique('grants_one_per_user', ['couponId', 'userId'])
export class GrantEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'coupon_id', type: 'integer' })
  couponId: number;

  @Column({ type: 'smallint' })
  segment: number;

  @Column({ name: 'user_id', type: 'varchar', length: 64 })
  userId: string;

  @Column({ type: 'varchar', length: 32 })
  strategy: string;

  @Column({ type: 'varchar', length: 64 })
  replica: string;

  @Column({ name: 'fence_token', type: 'bigint', nullable: true })
  fenceToken: string | null;

  /** When the critical section read the stock. */
  @Column({ name: 'entered_at', type: 'timestamptz' })
  enteredAt: Date;

  /** When it wrote the stock back. */
  @Column({ name: 'left_at', type: 'timestamptz' })
  leftAt: Date;
}
