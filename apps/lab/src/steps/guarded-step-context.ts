import type Redis from 'ioredis';
import type { Coupon, GrabAnswer, StepNeed } from '@app/contract';
import { LockKeys, type KeyState } from '../../../../walkthrough/lock-keys';
import { StackApi, type Replica, type StepGrab } from '../../../../walkthrough/stack-api';
import { undeclaredUse } from './declared-uses';

/** A step did something it did not declare: refused before it reaches the API. */
export class UndeclaredUseError extends Error {
  override readonly name = 'UndeclaredUseError';
  readonly code = 'LAB.UNDECLARED_USE';
}

/** The walkthrough's StackApi as the lab hands it to a step: declared uses only, coupons noted, cancellable. */
export class GuardedStackApi extends StackApi {
  readonly couponIds: number[] = [];

  constructor(
    nginxUrl: string,
    replicas: readonly Replica[],
    adminToken: string,
    private readonly cancel: AbortSignal,
    private readonly step: string,
    private readonly uses: readonly StepNeed[],
  ) {
    super(nginxUrl, replicas, adminToken, cancel);
  }

  override async createCoupon(body: { name: string; stock: number; segments?: number }): Promise<Coupon> {
    this.cancel.throwIfAborted();
    const coupon = await super.createCoupon(body);
    this.couponIds.push(coupon.id);
    return coupon;
  }

  override grab(couponId: number, userId: string, grab: StepGrab): Promise<GrabAnswer> {
    const undeclared = undeclaredUse(grab, this.uses);
    if (undeclared) return Promise.reject(new UndeclaredUseError(`the step ${this.step} sends ${undeclared}`));
    return super.grab(couponId, userId, grab);
  }
}

/** Lock keys read for a step; every poll stops at once when the run is cancelled. */
export class CancellableLockKeys extends LockKeys {
  constructor(
    redis: Redis,
    private readonly cancel: AbortSignal,
  ) {
    super(redis);
  }

  override peek(key: string): Promise<KeyState> {
    this.cancel.throwIfAborted();
    return super.peek(key);
  }
}
