import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, ApiUnreachableError, type ApiClient, type GrabOptions, type GrantLookup } from '@app/contract';
import type { RequestRecord } from './load-driver';
import type { Verdict } from './outcome';
import type { Resolution } from './scenario-types';

/** Verdicts that leave the buyer not knowing whether it holds the coupon. */
const UNSURE: ReadonlySet<Verdict> = new Set(['clear', 'died-with-replica', 'unclear']);

export interface Resolved extends Resolution {
  /** The userIds found holding a grant or a waiting order, or granted (accepted) on retry. */
  readonly storedUsers: string[];
}

/**
 * What a careful client does after an outage: every buyer whose answer was neither a 200 nor a
 * sold-out first asks whether it holds a grant (GET /coupons/:id/grants/:userId: a retried grab
 * would answer STOCK.SOLD_OUT first once the coupon sold out), and only if it holds neither a grant
 * nor an accepted order, grabs again with the same userId.
 */
export async function resolveByRetry(
  client: ApiClient,
  couponId: number,
  grab: GrabOptions,
  records: readonly RequestRecord[],
  verdicts: readonly Verdict[],
): Promise<Resolved> {
  const unsure = records.filter((_, i) => UNSURE.has(verdicts[i])).map((r) => r.userId);
  const found = await Promise.all(unsure.map((userId) => lookUp(client, couponId, userId)));
  const stored = unsure.filter((_, i) => found[i] === 'granted');
  const pending = unsure.filter((_, i) => found[i] === 'pending');
  const again = await Promise.all(
    unsure.filter((_, i) => found[i] === 'none').map((userId) => client.grab(couponId, userId, grab)),
  );
  const granted = again.filter((a) => a.status === 200 || a.status === 202).map((a) => a.userId);
  return {
    asked: unsure.length,
    storedUnacknowledged: stored.length,
    pendingWhenAsked: pending.length,
    grantedOnRetry: granted.length,
    storedUsers: [...stored, ...pending, ...granted],
  };
}

/** How long a buyer keeps asking through a 503 (a dependency still coming back) before it gives up. */
const ASK_FOR_MS = 30_000;

/**
 * What the buyer holds: a grant, an accepted order still waiting (redis-stream), or nothing; a 503
 * or no answer means "ask again shortly", as a careful client would.
 */
export async function lookUp(client: ApiClient, couponId: number, userId: string): Promise<GrantLookup['state']> {
  const giveUpAt = Date.now() + ASK_FOR_MS;
  for (;;) {
    try {
      return (await client.lookupGrant(couponId, userId)).state;
    } catch (error) {
      const passing = error instanceof ApiUnreachableError || (error instanceof ApiError && error.status === 503);
      if (!passing || Date.now() > giveUpAt) throw error;
      await sleep(200);
    }
  }
}

/** Whether the buyer holds a grant (an order still waiting is not one); asks through a 503 as lookUp does. */
export const hasGrant = async (client: ApiClient, couponId: number, userId: string) =>
  (await lookUp(client, couponId, userId)) === 'granted';
