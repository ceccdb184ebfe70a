import type { ApiClient } from '@app/contract';
import { DeductionService, StockDatabase } from '@app/stock';
import { setTimeout as sleep } from 'node:timers/promises';
import { isoToMs } from '../metrics/iso-time';
import { utilisation } from '../metrics/utilisation';

/**
 * The utilisation no lock that lets one section in at a time can pass: the locks' section (read
 * the stock, work `workMs`, write it back with its grant, as strategy `none` runs it) back to back
 * from one client, with no lock and no HTTP, its grants' [enteredAt, leftAt] (database clock) read
 * back through the API as the strategies' are. Between two sections there is only the write's
 * answer and the next read's request; a lock adds its hand-off to that, never takes from it.
 */
export class SectionAloneCeiling {
  private readonly db: StockDatabase;
  private readonly deductions: DeductionService;

  constructor(
    databaseUrl: string,
    private readonly api: ApiClient,
  ) {
    this.db = new StockDatabase({ databaseUrl, poolSize: 1, applicationName: 'oversell:bench' });
    this.deductions = new DeductionService(this.db);
  }

  /** The share of the span from the first entry to the last exit spent inside a section. */
  async busyShare(workMs: number, sections: number, label: string): Promise<number> {
    const coupon = await this.api.createCoupon({ name: `bench section alone ${label}`, stock: sections });
    const work = () => sleep(workMs);
    for (let i = 0; i < sections; i++) {
      const req = { couponId: coupon.id, userId: `${label}-${i}`, strategy: 'none', replica: 'bench-ceiling' };
      if (!(await this.deductions.readModifyWrite(req, { work }))) throw new Error('the section alone ran dry');
    }
    const grants = await this.api.grants(coupon.id);
    if (grants.length !== sections) throw new Error(`the section alone granted ${grants.length} of ${sections}`);
    return utilisation(grants.map((g) => ({ start: isoToMs(g.enteredAt), end: isoToMs(g.leftAt) }))).busyShare;
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
