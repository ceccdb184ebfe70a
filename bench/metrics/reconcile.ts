import type { Reconciliation } from '../types';

/**
 * Every 200 the client saw must be a grant row, and every grant row a 200 the client saw.
 * Unanswered requests (errors, timeouts) may have been granted behind our back: a mismatch
 * is then reported, not hidden, with `unanswered` saying why it may be so.
 */
export function reconcile(grantedSeen: number, grantsInDb: number, unanswered: number): Reconciliation {
  return { grantedSeen, grantsInDb, matches: grantedSeen === grantsInDb, unanswered };
}
