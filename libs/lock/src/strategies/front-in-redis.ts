import { LockUnavailableError } from '../lock.errors';
import { holderTtlOf, type Attempt } from '../verbs/attempt';
import { pauseBound, waitAsFront } from '../waiting/front-wait';
import type { LockCall } from './lock-call';
import type { Standing } from './lock-verbs';
import type { StrategyParts } from './strategy-parts';

/** A queued front attempts again at least this often: a lost wake-up costs at most one poll. */
export const POLL_MS = 300;
/** A front of a strategy without a queue (setnx, set-nx-px) retries at least this often. */
export const RETRY_MS = 20;

/** What a wait in Redis got: the lock, taken there (not handed off), with its fence token if any. */
export interface TakenInRedis {
  readonly fenceToken?: number;
  readonly viaHandoff: false;
}

/**
 * The front's wait in Redis, until the call's deadline: attempts (standing in the fair queue as
 * said), each pause ended by a wake-up, the holder's lease, or the bound. With the deadline past,
 * exactly one attempt. Throws when the lock was not had.
 */
export async function waitInRedis(parts: StrategyParts, call: LockCall, standing: Standing): Promise<TakenInRedis> {
  const { runtime, redis, reports } = parts;
  const attempt = async (): Promise<Attempt> => {
    const tried = await redis.attempt(call.keys, call.owner, call.leaseMs, standing);
    runtime.noteHolderTtl(call.keys.lock, holderTtlOf(tried));
    if (!tried.acquired && tried.why === 'replicas-missing') {
      const detail = `${tried.acknowledged}/${tried.wanted} replicas acknowledged`;
      reports.emit('replicas-missing', call.keys.resource, call.owner, { detail });
    }
    return tried;
  };
  let last: Attempt;
  try {
    const wake = standing === 'queued' ? runtime.listen(call.keys) : undefined;
    try {
      last = await waitAsFront({
        deadline: call.deadline,
        signal: call.signal,
        wake,
        attempt,
        pauseMs: (failed) => pauseBound(failed, redis.queued ? POLL_MS : RETRY_MS),
      });
    } finally {
      wake?.close();
    }
  } catch (error) {
    throw new LockUnavailableError(call.keys.resource, { cause: error });
  }
  if (call.signal?.aborted) {
    if (last.acquired) await redis.release(call.keys, call.owner, call.leaseMs).catch(() => undefined);
    throw reports.aborted(call);
  }
  if (!last.acquired) throw reports.timedOut(call, holderTtlOf(last));
  return { fenceToken: last.fenceToken, viaHandoff: false };
}
