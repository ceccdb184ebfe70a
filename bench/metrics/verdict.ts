import { errorCodeOf, isContractGrabAnswer, type Audit } from '@app/contract';

/** Every flag, in the order a verdict names them. */
const ORDER = ['OVERSOLD', 'LOST UPDATES', 'TWO HOLDERS', 'UNDERSOLD', 'FAILED', 'NOT RECONCILED'] as const;
export type VerdictFlag = (typeof ORDER)[number];

/** The success answers seen against the grant rows; `unanswered` requests may have been granted unseen. */
export function reconcile({ granted, errors, timeouts }: StatusCounts, grantsInDb: number) {
  return { grantedSeen: granted, grantsInDb, matches: granted === grantsInDb, unanswered: errors + timeouts };
}
export type Reconciliation = ReturnType<typeof reconcile>;

/** A round's answers by what they mean in the contract, none counted yet. */
export function emptyStatusCounts() {
  return {
    granted: 0,
    soldOut: 0, // 409 STOCK.SOLD_OUT
    duplicate: 0, // 409 GRANT.DUPLICATE
    fenceRejected: 0, // 409 FENCE.REJECTED: a stale holder's write refused
    lockTimeout: 0, // 429 LOCK.TIMEOUT or STOCK.CONTENDED: turned away with stock perhaps left
    unavailable: 0, // 503 with a contract code: a dependency was down or the lock was lost
    outsideContract: 0, // anything the contract does not allow a grab: a 500, a 502 from nginx, another 4xx
    errors: 0, // no HTTP answer at all
    timeouts: 0, // no HTTP answer in time
  };
}
export type StatusCounts = Readonly<ReturnType<typeof emptyStatusCounts>>;

/** An HTTP answer's bucket. `success` is the design's success answer: 200 granted, or 202 accepted (redis-stream). */
export function classify(status: number, body: string, success = 200): keyof StatusCounts {
  if (status === success) return 'granted';
  const code = errorCodeOf(body);
  if (status === 200 || status === 202 || !isContractGrabAnswer(status, code)) return 'outsideContract';
  if (code === 'STOCK.SOLD_OUT') return 'soldOut';
  if (code === 'GRANT.DUPLICATE') return 'duplicate';
  if (code === 'FENCE.REJECTED') return 'fenceRejected';
  return status === 429 ? 'lockTimeout' : 'unavailable';
}

/** Answers that turned a buyer away while stock may have been left (a refused fencing token too). */
export function turnedAwayUnserved(s: StatusCounts): number {
  return s.fenceRejected + s.lockTimeout + s.unavailable + s.outsideContract + s.errors + s.timeouts;
}

/** `promisesExclusion` and `expectedFlags` as scenarios.ts declares them. */
export interface VerdictInput {
  readonly audit: Audit;
  readonly statuses: StatusCounts;
  readonly reconciliation: Reconciliation;
  readonly promisesExclusion: boolean;
  readonly expectedFlags: readonly VerdictFlag[];
}

/**
 * A verdict that can fail both ways. Correct: no coupon beyond the stock, no decrement overwritten, never two holders
 * of one row (where exclusion is promised), no stock left while buyers were turned away unserved (429, 503, no answer)
 * or told it sold out, every answer within the contract, and every 200 a grant row (and back).
 */
export function verdict({ audit, statuses, reconciliation, promisesExclusion, expectedFlags }: VerdictInput) {
  // False while units were in the stock of record and never granted (lost updates leave sold units in the record).
  const falseSoldOut = statuses.soldOut > 0 && Math.min(audit.stock, audit.initialStock - audit.grants) > 0;
  const found: Record<VerdictFlag, boolean> = {
    OVERSOLD: audit.oversold > 0,
    'LOST UPDATES': audit.lostUpdates > 0,
    'TWO HOLDERS': promisesExclusion && audit.maxConcurrentHolders > 1,
    UNDERSOLD: (audit.stock > 0 && turnedAwayUnserved(statuses) > 0) || falseSoldOut,
    FAILED: statuses.outsideContract > 0,
    'NOT RECONCILED': !reconciliation.matches,
  };
  return verdictOf(
    ORDER.filter((f) => found[f]),
    ORDER.filter((f) => expectedFlags.includes(f)),
  );
}

export type Verdict = ReturnType<typeof verdictOf>;

/** The verdict of flags found, against the flags expected (both in ORDER). */
export function verdictOf(flags: VerdictFlag[], expected: VerdictFlag[]) {
  return {
    correct: flags.length === 0,
    flags,
    label: flags.length === 0 ? 'correct' : flags.join(' + '),
    expected,
    asExpected: flags.length === expected.length && flags.every((f) => expected.includes(f)),
  };
}
