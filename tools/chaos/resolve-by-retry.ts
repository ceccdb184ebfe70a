import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, ApiUnreachableError, type ApiClient, type GrabOptions } from '@app/contract';
import type { RequestRecord } from './load-driver';
import type { Verdict } from './outcome';
import type { Resolution } from './scenario-types';

/** Verdicts that leave the buyer not knowing whether it holds the coupon. */
const UNSURE: ReadonlySet<Verdict> = new Set(['clear', 'died-with-replica', 'unclear']);

export interface Resolved extends Resolution {
  /** The userIds found holding a grant, or granted on retry. */
  readonly storedUsers: string[];
}

/**
 * What a careful client does after an outage: every buyer whose answer was neither a 200 nor a
 * sold-out first asks whether it holds a grant (GET /coupons/:id/grants/:userId: a retried grab
 * would answer STOCK.SOLD_OUT first once the coupon sold out), and only if it holds none, grabs
 * again with the same userId.
 */
export async function resolveByRetry(
  client: ApiClient,
  couponId: number,
  grab: GrabOptions,
  records: readonly RequestRecord[],
  verdicts: readonly Verdict[],
): Promise<Resolved> {
  const unsure = records.filter((_, i) => UNSURE.has(verdicts[i])).map((r) => r.userId);
  const held = await Promise.all(unsure.map((userId) => hasGrant(client, couponId, userId)));
  const stored = unsure.filter((_, i) => held[i]);
  const again = await Promise.all(
    unsure.filter((_, i) => !held[i]).map((userId) => client.grab(couponId, userId, grab)),
  );
  const granted = again.filter((a) => a.status === 200).map((a) => a.userId);
  return {
    asked: unsure.length,
    storedUnacknowledged: stored.length,
    grantedOnRetry: granted.length,
    storedUsers: [...stored, ...granted],
  };
}

/** How long a buyer keeps asking through a 503 (a dependency still coming back) before it gives up. */
const ASK_FOR_MS = 30_000;

/** Whether the buyer holds a grant; a 503 or no answer means "ask again shortly", as a careful client would. */
export async function hasGrant(client: ApiClient, couponId: number, userId: string): Promise<boolean> {
  const giveUpAt = Date.now() + ASK_FOR_MS;
  for (;;) {
    try {
      await client.grant(couponId, userId);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.errorCode === 'GRANT.NOT_FOUND') return false;
      const passing = error instanceof ApiUnreachableError || (error instanceof ApiError && error.status === 503);
      if (!passing || Date.now() > giveUpAt) throw error;
      await sleep(200);
    }
  }
}
