import type { Audit } from '@app/contract';
import { reservationUser, stockKeys } from '@app/redis-stock';
import type { Check } from './check';
import { connectStackRedis, type RedisAddress } from '../orders/stream-drain';

/**
 * Where a unit can be stranded: redis-lua's grab reserves it in Redis, then persists it in
 * PostgreSQL or gives it back; a replica killed between the two leaves the reservation until its
 * deadline (RESERVATION_MS), Redis's counter a unit below the stock of record meanwhile.
 */
export const strandsReservations = (fault: string, strategy: string): boolean =>
  fault === 'replica-kill' && strategy === 'redis-lua';

/**
 * Of a coupon's reservation ids (`<userId>|<nonce>`) left in Redis, how many no grant row accounts
 * for: a buyer holds one grant at most, so it settles one of its reservations at most (the settling
 * ZREM is not awaited: a replica killed after the commit leaves it). A lower bound of the stranded.
 */
export function strandedCount(reservationIds: readonly string[], grantedInDb: readonly string[]): number {
  const settles = new Set(grantedInDb);
  let stranded = 0;
  for (const id of reservationIds) {
    const user = reservationUser(id);
    if (settles.delete(user)) continue;
    stranded += 1;
  }
  return stranded;
}

/** The coupon's reservations stranded in the stack's Redis, read once no grab is in flight. */
export async function observeStranded(
  address: RedisAddress,
  couponId: number,
  grantedInDb: readonly string[],
): Promise<number> {
  const redis = connectStackRedis(address);
  try {
    return strandedCount(await redis.zrange(stockKeys(couponId).reservations, 0, -1), grantedInDb);
  } finally {
    await redis.quit();
  }
}

/** Sold-out answers while stock of record remained: a false sold out, an undersell. */
export const undersold = (soldOutAnswers: number, audit: Audit): boolean => soldOutAnswers > 0 && audit.stock > 0;

const units = (n: number) =>
  n === 1
    ? '1 unit reserved by a grab that died with its replica, held until its lease ends'
    : `${n} units reserved by grabs that died with their replica, held until their leases end`;

/**
 * Sold-out answers while stock of record remained, a false sold out: excused only where a replica
 * kill stranded redis-lua reservations, and only up to the units they hold (`strandedReservations`,
 * observed in Redis at the end of the run; absent, nothing is excused).
 */
export function soldOutCheck(
  soldOutAnswers: number,
  audit: Audit,
  run: { readonly fault: string; readonly strategy: string; readonly strandedReservations?: number },
): Check {
  const name = 'no sold-out answer while stock remained';
  const figures = `${soldOutAnswers} sold-out answers, stock ${audit.stock} left`;
  if (!undersold(soldOutAnswers, audit)) return { name, ok: true, detail: figures };
  const stranded = strandsReservations(run.fault, run.strategy) ? run.strandedReservations : undefined;
  if (stranded !== undefined && audit.stock <= stranded)
    return { name, ok: true, detail: `${figures}: ${units(audit.stock)}` };
  const seen = stranded === undefined ? '' : `, ${stranded} reservation${stranded === 1 ? '' : 's'} stranded`;
  return { name, ok: false, detail: `${figures}${seen}: UNDERSOLD` };
}
