import { Injectable } from '@nestjs/common';
import type { ReconcileReport } from '@app/contract';
import { reconcileStock } from '@app/redis-stock';
import { CouponsService } from '@app/stock';
import { AppRedis } from '../redis/app-redis';

/** Redis's stock (redis-lua's counter and reservations) held against the stock of record, and repaired. */
@Injectable()
export class StockReconciler {
  constructor(
    private readonly redis: AppRedis,
    private readonly coupons: CouponsService,
  ) {}

  async reconcile(couponId: number): Promise<ReconcileReport> {
    await this.coupons.get(couponId); // COUPON.NOT_FOUND before touching Redis
    return reconcileStock(this.redis.client, couponId, {
      currentStock: async (id) => (await this.coupons.get(id)).stock,
      grantedUsers: (id, users) => this.coupons.grantedUsers(id, users),
    });
  }
}
