import type { Audit } from '@app/contract';
import { audit, burst, type Burst } from './grabs';
import { createCoupon, type StackInfo } from './stack';

export interface FreshBurst {
  /** Where the grabs go: nginx, or one replica. */
  readonly via: string;
  readonly stock: number;
  readonly segments?: number;
  /** How many users grab at once. */
  readonly users: number;
  readonly query: Record<string, string | number>;
}

/** A burst of grabs on a coupon of its own: what the users were told, and the coupon's audit after. */
export async function burstOnFreshCoupon(info: StackInfo, run: FreshBurst): Promise<{ seen: Burst; result: Audit }> {
  const coupon = await createCoupon(info, run.stock, run.segments);
  const seen = await burst(run.via, coupon.id, run.users, run.query);
  return { seen, result: await audit(info, coupon.id) };
}

/** What the users are told when exactly the stock is sold: `stock` grants, every other user sold out. */
export const soldExactly = (stock: number, users: number): Burst['counts'] => ({
  '200': stock,
  ...(users > stock ? { '409 STOCK.SOLD_OUT': users - stock } : {}),
});

export { exactAudit } from '../../fixtures/audit';
