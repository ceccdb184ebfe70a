import { SCHED_INFO, type ApiClient, type SchedShared, type SchedStrategy } from '@app/contract';
import { lockKey, type LockKeys } from '../../../../walkthrough/lock-keys';

/** The shared state as the stack holds it now: the stock row, the grant rows, the lock key. */
export async function sharedState(
  api: ApiClient,
  keys: LockKeys,
  couponId: number,
  ownerOf: (value: string | null) => 1 | 2 | null,
): Promise<SchedShared> {
  const [coupon, lock] = await Promise.all([api.coupon(couponId), keys.peek(lockKey(couponId))]);
  return {
    stock: coupon.stock,
    grants: coupon.grants,
    lockOwner: ownerOf(lock.holder),
    lockValue: lock.holder,
    lockTtlMs: lock.pttlMs,
  };
}

/** Whether the round's challenge was met, from the audit; a round whose challenge cannot be met, never. */
export function roundMet(strategy: SchedStrategy, audit: { oversold: number; maxConcurrentHolders: number }): boolean {
  switch (SCHED_INFO[strategy].goal) {
    case 'oversold':
      return audit.oversold > 0;
    case 'two-holders':
      return audit.maxConcurrentHolders >= 2;
    default:
      return false;
  }
}
