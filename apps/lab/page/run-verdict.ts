import type { AnswerTally, Audit, LoadOrders } from '@app/contract';

/** Strategies with no section that shuts others out (a statement, a script, a batch, or none): overlap is by design. */
const NO_SINGLE_HOLDER: ReadonlySet<string> = new Set([
  'none',
  'db-atomic',
  'db-optimistic',
  'db-batched',
  'redis-lua',
  'redis-stream',
]);

/** Answers that served the buyer: granted, accepted (an order persisted later), or told of the grant it has. */
const SERVED: ReadonlySet<string> = new Set(['200', '202', '409 GRANT.DUPLICATE']);

/** Answers that leave the buyer without a coupon though one may have been left: all but those served. */
function turnedAway(answers: AnswerTally): number {
  return Object.values(answers)
    .flatMap((row) => Object.entries(row))
    .filter(([code]) => !SERVED.has(code))
    .reduce((n, [, count]) => n + count, 0);
}

/**
 * Whether a run was exact, and each way it was not: no oversell, no lost update, no unit left
 * unsold while a buyer was turned away (sold out, timed out, unavailable), one holder at a time
 * for a strategy whose lock promises it, and every accepted order (202) a grant.
 */
export function judgeRun(
  strategy: string,
  audit: Audit,
  answers: AnswerTally,
  orders?: LoadOrders,
): { exact: boolean; wrongs: string[] } {
  const wrongs: string[] = [];
  if (audit.oversold > 0) wrongs.push(`oversold ${audit.oversold}`);
  if (audit.lostUpdates > 0) wrongs.push(`lost updates ${audit.lostUpdates}`);
  // Units in the stock of record and never granted (lost updates leave stock that was in fact sold).
  const unsold = Math.min(audit.stock, audit.initialStock - audit.grants);
  const away = turnedAway(answers);
  if (unsold > 0 && away > 0) wrongs.push(`undersold: ${unsold} left while ${away} buyer(s) were turned away`);
  if (!NO_SINGLE_HOLDER.has(strategy) && audit.maxConcurrentHolders > 1)
    wrongs.push(`${audit.maxConcurrentHolders} holders at once under one lock`);
  // A 202 is a promise: the audit can add up while accepted orders are gone (a Redis that lost them gives the units back).
  if (orders && orders.withoutGrant > 0)
    wrongs.push(`${orders.withoutGrant} of ${orders.accepted} accepted orders ended without a grant`);
  if (orders && !orders.drained) wrongs.push('orders still waiting when the wait for them ran out');
  return { exact: wrongs.length === 0, wrongs };
}
