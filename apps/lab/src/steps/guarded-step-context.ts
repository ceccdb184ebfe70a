import type Redis from 'ioredis';
import type { Coupon, GrabAnswer, StepNeed } from '@app/contract';
import { CodedError } from '@app/errors';
import { LockKeys, type KeyState } from '../../../../walkthrough/lock-keys';
import { StackApi, type Replica, type StepGrab } from '../../../../walkthrough/stack-api';
import { undeclaredUse } from './declared-uses';

/** A step did something it did not declare: refused before it reaches the API. */
export class UndeclaredUseError extends CodedError {
  readonly code = 'LAB.UNDECLARED_USE';
}

/**
 * The walkthrough's StackApi as the lab hands it to a step: coupons noted, nothing sent once the run
 * is cancelled, and a grab the step did not declare (a fault, a chaos option) refused: it is never
 * sent, the step is stopped at its next wait, and `violation` says why.
 */
export class GuardedStackApi extends StackApi {
  readonly couponIds: number[] = [];
  violation?: UndeclaredUseError;

  constructor(
    nginxUrl: string,
    replicas: readonly Replica[],
    adminToken: string,
    private readonly stop: AbortController,
    private readonly step: string,
    private readonly uses: readonly StepNeed[],
  ) {
    super(nginxUrl, replicas, adminToken, stop.signal);
  }

  override async createCoupon(body: { name: string; stock: number; segments?: number }): Promise<Coupon> {
    this.stop.signal.throwIfAborted();
    const coupon = await super.createCoupon(body);
    this.couponIds.push(coupon.id);
    return coupon;
  }

  override grab(couponId: number, userId: string, grab: StepGrab): Promise<GrabAnswer> {
    const undeclared = undeclaredUse(grab, this.uses);
    if (undeclared && !this.violation) {
      this.violation = new UndeclaredUseError(`the step ${this.step} sends ${undeclared}`);
      this.stop.abort(this.violation);
    }
    // Never a rejection: a step may hold a grab's promise a while before awaiting it.
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
