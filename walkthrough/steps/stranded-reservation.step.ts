import { stockKeys } from '@app/redis-stock';
import { check, countStatus, statusCounts, timeline, users, waitForReplica, withCoupon } from '../scenario';
import { evidence } from './evidence';
import type { Step, StepContext } from '../step';
import { stepProse } from './step-prose';

const STRATEGY = 'redis-lua';
const STOCK = 3;
/**
 * Moves every reservation of the coupon to its deadline by Redis's own clock, as the reservation's
 * 30 s would (it outlives any persist); returns how many there are.
 */
async function toDeadline(ctx: StepContext, couponId: number): Promise<number> {
  const { reservations } = stockKeys(couponId);
  const ids = await ctx.keys.redis.zrange(reservations, 0, -1);
  const [seconds] = await ctx.keys.redis.time();
  for (const id of ids) await ctx.keys.redis.zadd(reservations, 'XX', Number(seconds) * 1000 - 1, id);
  return ids.length;
}

export const strandedReservationStep: Step = {
  ...stepProse('stranded-reservation', { strategy: STRATEGY }),
  requires: [STRATEGY],
  uses: ['chaos', 'fault'],
  async run(ctx) {
    return withCoupon(ctx, 'stranded-reservation', STOCK, async (coupon) => {
      const [victim] = ctx.api.replicas;
      const [first, stranded, ...rest] = users('stranded', 2 + STOCK);
      const counter = async () => Number(await ctx.keys.redis.get(stockKeys(coupon.id).counter));
      const sold = await ctx.api.grab(coupon.id, first, { strategy: STRATEGY });
      ctx.say(
        `${first}: ${sold.status}; now ${victim.id} reserves a unit for ${stranded} and dies (crash=after-reserve)`,
      );
      const crashed = await ctx.api.grab(coupon.id, stranded, {
        strategy: STRATEGY,
        via: victim.id,
        crash: 'after-reserve',
      });
      const restartMs = await waitForReplica(ctx, victim.id);
      const [redisBefore, ofRecord] = [await counter(), (await ctx.api.audit(coupon.id)).stock];
      ctx.say(`Redis's counter ${redisBefore}, the database's stock ${ofRecord}: a unit is stranded`);
      const pending = await toDeadline(ctx, coupon.id);
      ctx.say(`${pending} reservation(s) moved past their deadline by Redis's clock, as 30 s would; reconciling`);
      const report = await ctx.api.reconcile(coupon.id);
      const reconciledAt = Date.now();
      ctx.say(`reconcile: ${report.actions.join('; ') || 'nothing to do'}`);
      const after = await Promise.all(rest.map((u) => ctx.api.grab(coupon.id, u, { strategy: STRATEGY })));
      const { audit, grants, events } = await evidence(ctx, coupon.id);
      const granted = countStatus(after, 200);
      return {
        observed: {
          crashedRequest: crashed.status === 0 ? `dropped (${crashed.code})` : crashed.status,
          replicaRestartMs: restartMs,
          redisCounterAfterCrash: redisBefore,
          stockOfRecordAfterCrash: ofRecord,
          returnedByReconcile: report.reservations.returned,
          redisCounterAfterReconcile: report.counterAfter,
          grabsAfter: JSON.stringify(statusCounts(after)),
          grants: audit.grants,
          stockLeft: audit.stock,
          oversold: audit.oversold,
        },
        checks: [
          check('crashed grab got no answer', crashed.status, crashed.status === 0, 'dropped connection'),
          check(
            'Redis one unit short of the database',
            `${redisBefore} vs ${ofRecord}`,
            redisBefore === ofRecord - 1,
            `${ofRecord - 1} vs ${ofRecord}`,
          ),
          check('units given back by reconcile', report.reservations.returned, report.reservations.returned === 1, '1'),
          check(
            'Redis in step with the database',
            report.counterAfter,
            report.counterAfter === report.stockOfRecord,
            String(report.stockOfRecord),
          ),
          check('the rest of the stock sold', granted, granted === STOCK - 1, String(STOCK - 1)),
          check(
            'whole stock sold, none twice',
            `${audit.grants} grant(s), stock ${audit.stock}`,
            audit.grants === STOCK && audit.stock === 0 && audit.oversold === 0,
            `${STOCK} grant(s), stock 0`,
          ),
        ],
        summary: `The crash left Redis at ${redisBefore} against the database's ${ofRecord}; reconciliation gave back ${report.reservations.returned} unit(s) past their deadline, and ${audit.grants} of ${STOCK} sold with none twice.`,
        timeline: timeline(ctx, 'crash=after-reserve: a unit stranded in Redis, given back', grants, events, {
          ticks: [
            {
              lane: victim.id,
              at: crashed.answeredAt,
              type: 'crash',
              detail: `${victim.id} died holding a reservation`,
            },
            { lane: 'redis', at: reconciledAt, type: 'reconciled', detail: report.actions.join('; ') },
          ],
        }),
      };
    });
  },
};
