import { Injectable } from '@nestjs/common';
import { AppRedis } from '../redis/app-redis';

/**
 * A coupon's Redis keys: its lock, wake-up channel and fence counter (`lock:{coupon:42}…`) and
 * the same for each segment (`lock:{coupon:42:seg:3}…`). A reset clears them all, so a lock left
 * by a crashed holder does not outlive the coupon's reset.
 */
@Injectable()
export class CouponLocks {
  constructor(private readonly redis: AppRedis) {}

  clear(couponId: number): Promise<number> {
    return this.redis.deleteMatching([
      `lock:{coupon:${couponId}}*`,
      `lock:{coupon:${couponId}:seg:*}*`,
      `stock:{coupon:${couponId}}*`,
    ]);
  }
}
