import { Injectable } from '@nestjs/common';
import { couponLockResource } from '@app/contract';
import { lockKeys } from '@app/lock';
import { AppRedis } from '../redis/app-redis';

/**
 * A coupon's lock keys: its lock, wake-up channel and fence counter (`lock:{coupon:42}…`) and
 * the same for each segment (`lock:{coupon:42:seg:3}…`). A reset clears them all, so a lock left
 * by a crashed holder does not outlive the coupon's reset. Its stock keys are not swept here: the
 * reset drops them in one step (RedisStock.reset), and a sweep after it would erase orders of the
 * new sale.
 */
@Injectable()
export class CouponLocks {
  constructor(private readonly redis: AppRedis) {}

  clear(couponId: number): Promise<number> {
    return this.redis.deleteMatching([
      `${lockKeys(couponLockResource(couponId)).lock}*`,
      `${lockKeys(couponLockResource(couponId, '*')).lock}*`,
    ]);
  }
}
