import type { CallAnswer } from '@app/contract';

/** What one grab request ended with, as the client saw it. */
export type Outcome =
  /** `upstream`: on nginx's own 502, the replica that failed (host:port). */
  | { kind: 'answer'; status: number; code?: string; upstream?: string }
  /** The connection broke before an answer (reset, refused, closed). */
  | { kind: 'broken'; reason: string }
  /** No answer within the client's timeout. */
  | { kind: 'timeout' };

/** How the fault suite judges an outcome. */
export type Verdict =
  /** 200: the grant was acknowledged. */
  | 'granted'
  /** 202 (redis-stream): the order was accepted, a promise of a grant once persisted. */
  | 'accepted'
  /** 409 sold out or duplicate: a business answer, not a failure. */
  | 'refused'
  /**
   * 429 or 503 with a contract code, or 409 FENCE.REJECTED (a stale holder's write refused): a
   * failure the client can act on by retrying. After recovery, none is expected.
   */
  | 'clear'
  /**
   * nginx's 502 or a broken connection for a request that was in flight on the replica that was
   * killed: nginx never re-sends a POST it already passed on, so the client cannot know whether
   * it was granted. Expected only for the replica-kill fault, and only for requests in flight then.
   */
  | 'died-with-replica'
  /** Anything else (a bare 500, a 502 with no replica killed, a timeout): an invariant failure. */
  | 'unclear';

const CLEAR_STATUSES = new Set([429, 503]);
const BUSINESS_REFUSALS = new Set(['STOCK.SOLD_OUT', 'GRANT.DUPLICATE']);
/** The one 409 a grab may get that is neither sold out nor a duplicate: a stale holder's write refused. */
const CLEAR_CONFLICT = 'FENCE.REJECTED';

/** A short label for the status table, e.g. `503 DEPENDENCY.UNAVAILABLE`, `reset`, `timeout`. */
export function label(outcome: Outcome): string {
  if (outcome.kind === 'timeout') return 'timeout';
  if (outcome.kind === 'broken') return outcome.reason;
  return outcome.code ? `${outcome.status} ${outcome.code}` : String(outcome.status);
}

/**
 * `diedWith(upstream)`: the request was in flight when a replica was SIGKILLed, and `upstream` (the
 * replica nginx names in its 502) is that replica. A 502 from any other replica is not excused.
 */
export function judge(outcome: Outcome, diedWith: (upstream: string | undefined) => boolean): Verdict {
  if (outcome.kind === 'timeout' || outcome.kind === 'broken') return 'unclear';
  const { status, code } = outcome;
  if (status === 200) return 'granted';
  if (status === 202) return 'accepted';
  if (status === 409 && code && BUSINESS_REFUSALS.has(code)) return 'refused';
  if ((CLEAR_STATUSES.has(status) && code) || (status === 409 && code === CLEAR_CONFLICT)) return 'clear';
  if (status === 502 && diedWith(outcome.upstream)) return 'died-with-replica';
  return 'unclear';
}

/** The outcome of one call as the typed client observed it. */
export function outcomeOf(answer: CallAnswer): Outcome {
  if (answer.status !== 0)
    return { kind: 'answer', status: answer.status, code: answer.code, upstream: answer.upstream };
  if (answer.code === 'TimeoutError' || answer.code === 'AbortError') return { kind: 'timeout' };
  return { kind: 'broken', reason: answer.code ?? 'no answer' };
}
