import type { Audit, Grant, LockEvent } from '@app/contract';
import { lockResource } from '../lock-keys';
import type { StepContext } from '../step';

/**
 * What the database and every replica's lock events say about a coupon once a step's grabs are
 * done. Apart from scenario.ts, which the browser page imports: lock-keys needs Node (ioredis).
 */
export async function evidence(
  ctx: StepContext,
  couponId: number,
): Promise<{ audit: Audit; grants: Grant[]; events: LockEvent[] }> {
  const [audit, grants, events] = await Promise.all([
    ctx.api.audit(couponId),
    ctx.api.grants(couponId),
    ctx.api.lockEvents(lockResource(couponId)),
  ]);
  return { audit, grants, events };
}
