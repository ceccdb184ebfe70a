import { Pool } from 'pg';
import { ATOMIC_GRANT_SQL } from '@app/stock';
import { rateInFlight } from './in-flight';

/**
 * db-atomic's exact statement, prepared under the replicas' own name, straight from node-postgres
 * on one hot row with fresh userIds and no HTTP: what one stock row takes, one commit per grant.
 * One pool for every measurement, so its connections and prepared statements are warm.
 */
export class HotRowCeiling {
  private readonly pool: Pool;

  constructor(databaseUrl: string, poolSize: number) {
    this.pool = new Pool({ connectionString: databaseUrl, max: poolSize, application_name: 'oversell:bench' });
    this.pool.on('error', () => undefined);
  }

  /** Grants `amount` units of `couponId` (which must hold them) to `${userPrefix}-i`. */
  rate(couponId: number, amount: number, inFlight: number, userPrefix: string): Promise<number> {
    return rateInFlight(amount, inFlight, async (i) => {
      const { rowCount } = await this.pool.query({
        name: 'atomic-grant',
        text: ATOMIC_GRANT_SQL,
        values: [couponId, `${userPrefix}-${i}`, 'db-atomic', 'bench-ceiling', null],
      });
      if (rowCount !== 1) throw new Error(`the hot-row statement granted ${rowCount} rows; the coupon ran dry`);
    });
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
