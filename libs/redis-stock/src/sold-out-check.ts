import type { Redis } from 'ioredis';
import { reconcileStock, type StockLedger } from './reconcile';
import { defineStockCommands, RESERVATION_MS, stockKeys } from './redis-stock-commands';

/** A coupon's counter is checked at most this often per process: one database read for the sold-out crowd. */
export const SOLD_OUT_CHECK_MS = 1000;

/**
 * Brings back the units of a counter that says sold out while the stock of record has some left:
 * a failover lost writes (a give-back, a reload), or takes ran in Redis but their answers never
 * came back, so nobody persists their reservations. Both repairs are safe under load:
 * - a take without an answer is given back by the process that made it (it never persists it;
 *   the give-back is a no-op when the take never ran or was returned already);
 * - otherwise the coupon is reconciled: reservations past their deadline settled or returned, and
 *   the counter set to the stock of record only with nothing in flight (no reservation, no
 *   redis-stream order waiting) and nothing moved meanwhile. The database's conditional decrement
 *   stays the final word, so a counter set too high can never oversell.
 */
export class SoldOutCheck {
  /** Takes without an answer, reservation id → coupon and when; kept while their reservation may be in flight. */
  private readonly unanswered = new Map<string, { couponId: number; atMs: number }>();
  private readonly checkedAtMs = new Map<number, number>();
  private readonly running = new Map<number, Promise<boolean>>();

  constructor(
    private readonly redis: Redis,
    private readonly ledger: StockLedger,
  ) {
    defineStockCommands(redis);
  }

  /** A take that failed without an answer: Redis may hold its reservation, which nobody will persist. */
  unansweredTake(couponId: number, id: string): void {
    const now = Date.now();
    // Past the reservation's deadline reconciliation returns it: no need to remember it longer.
    for (const [key, { atMs }] of this.unanswered) {
      if (now - atMs < RESERVATION_MS) break;
      this.unanswered.delete(key);
    }
    this.unanswered.set(id, { couponId, atMs: now });
  }

  /**
   * After Redis answered sold out: true when units came back (worth one more take). A check already
   * running for the coupon is shared; one done less than SOLD_OUT_CHECK_MS ago answers false.
   */
  recovered(couponId: number): Promise<boolean> {
    const running = this.running.get(couponId);
    if (running) return running;
    const now = Date.now();
    if (now - (this.checkedAtMs.get(couponId) ?? -Infinity) < SOLD_OUT_CHECK_MS) return Promise.resolve(false);
    this.checkedAtMs.set(couponId, now);
    // A check that fails (Redis or the database down) leaves the sold-out answer as it was.
    const check = this.check(couponId)
      .catch(() => false)
      .finally(() => this.running.delete(couponId));
    this.running.set(couponId, check);
    return check;
  }

  private async check(couponId: number): Promise<boolean> {
    const returned = await this.giveBackUnanswered(couponId);
    if ((await this.ledger.currentStock(couponId)) <= 0) return returned > 0;
    const report = await reconcileStock(this.redis, couponId, this.ledger);
    return returned + report.reservations.returned > 0 || report.counter === 'repaired';
  }

  private async giveBackUnanswered(couponId: number): Promise<number> {
    const keys = stockKeys(couponId);
    let returned = 0;
    for (const [id, entry] of this.unanswered) {
      if (entry.couponId !== couponId) continue;
      if ((await this.redis.stockGiveBack(keys.counter, keys.reservations, id)) >= 0) returned += 1;
      this.unanswered.delete(id);
    }
    return returned;
  }
}
