import type { Audit, Verdict, VerdictFlag } from '../types';

/**
 * Correct means: no coupon beyond the stock, no decrement overwritten, and (for strategies that
 * promise mutual exclusion) never two holders inside the same stock row's critical section.
 */
export function verdict(audit: Audit, promisesExclusion: boolean): Verdict {
  const flags: VerdictFlag[] = [];
  if (audit.oversold > 0) flags.push('OVERSOLD');
  if (audit.lostUpdates > 0) flags.push('LOST UPDATES');
  if (promisesExclusion && audit.maxConcurrentHolders > 1) flags.push('TWO HOLDERS');
  return { correct: flags.length === 0, flags, label: flags.length === 0 ? 'correct' : flags.join(' + ') };
}
