import type { Hold } from '../held-locks';
import { LockLostError } from '../lock.errors';
import type { ReleaseOutcome } from '../verbs/attempt';
import type { HandoffResult } from '../verbs/handoff';
import type { LockCall } from './lock-call';
import type { StrategyParts } from './strategy-parts';

/**
 * Lets go of a hold. A hold in its line hands the lock to the line's next waiter, or releases it
 * for real and makes that waiter the front. A hold outside the line (a nested acquire, or a
 * single attempt made without waiting) only releases.
 */
export async function letGo(
  parts: StrategyParts,
  hold: Hold,
  call: LockCall,
  inLine: boolean,
  acquiredAt: number,
): Promise<void> {
  let viaHandoff = false;
  try {
    await parts.beforeRelease(hold);
    viaHandoff = inLine && (await handoff(parts, call));
    const outcome: ReleaseOutcome = viaHandoff
      ? { status: 'released', detail: 'handed off' }
      : await parts.redis.release(call.keys, call.owner, call.leaseMs);
    parts.reports.released(call, outcome, performance.now() - acquiredAt);
    if (outcome.status === 'not-held' || outcome.status === 'expired') {
      hold.lost.abort(new LockLostError(call.keys.resource));
    }
  } catch (error) {
    // The critical section has run; a failed release only leaves the lease to expire.
    parts.reports.releaseFailed(call, error);
  } finally {
    parts.runtime.unhold(hold);
    if (inLine && !viaHandoff) parts.runtime.passFront(call.keys.lock);
  }
}

/**
 * Passes the lock to the next waiter of this process, if the run allows and Redis confirms it is
 * still ours (the taker runs only then). Off under WAIT: the taker would skip the replica check.
 */
async function handoff(parts: StrategyParts, call: LockCall): Promise<boolean> {
  const { runtime, redis } = parts;
  if (runtime.waitForReplicas) return false;
  const taker = runtime.takeNext(call.keys.lock, parts.name);
  if (!taker) return false;
  let result: HandoffResult = { handed: false };
  try {
    result = await redis.handoff(call.keys, call.owner, taker);
  } finally {
    const turn = result.handed ? { by: 'handoff' as const, fenceToken: result.fenceToken } : undefined;
    runtime.settleHandoff(call.keys.lock, taker, turn);
  }
  return result.handed;
}
