import { check, countStatus, statusCounts, timeline, users, withCoupon } from '../scenario';
import type { Step } from '../step';

const STOCK = 5;
const USERS = 20;
const WORK_MS = 300;

export const noneStep: Step = {
  name: 'none',
  title: 'No lock: concurrent grabs oversell',
  explain:
    `A coupon with ${STOCK} left. ${USERS} users grab it at the same moment, spread over the three replicas by nginx, ` +
    `with no lock at all. Each request reads the stock, works for ${WORK_MS} ms, then writes "what I read minus one" back. ` +
    'Since all of them read before any of them writes, they all read the same number, all succeed, and all write the same value: ' +
    'every decrement but one is overwritten (a lost update), and far more coupons are granted than exist.',
  expected: `more than ${STOCK} grants (oversold > 0), lost updates > 0, several holders at once`,
  requires: ['none'],
  async run(ctx) {
    return withCoupon(ctx, 'none', STOCK, async (coupon) => {
      ctx.say(`firing ${USERS} grabs at once through nginx`);
      const results = await Promise.all(
        users('none', USERS).map((u) => ctx.api.grab(coupon.id, u, { strategy: 'none', workMs: WORK_MS })),
      );
      const [audit, grants] = await Promise.all([ctx.api.audit(coupon.id), ctx.api.grants(coupon.id)]);
      return {
        observed: {
          stock: STOCK,
          requests: USERS,
          granted: countStatus(results, 200),
          statuses: JSON.stringify(statusCounts(results)),
          remainingStock: audit.stock,
          oversold: audit.oversold,
          lostUpdates: audit.lostUpdates,
          maxConcurrentHolders: audit.maxConcurrentHolders,
        },
        checks: [
          check('oversold', audit.oversold, audit.oversold > 0, '> 0'),
          check('lost updates', audit.lostUpdates, audit.lostUpdates > 0, '> 0'),
          check('max concurrent holders', audit.maxConcurrentHolders, audit.maxConcurrentHolders > 1, '> 1'),
        ],
        summary: `${audit.grants} coupons granted out of ${STOCK}: oversold by ${audit.oversold}, ${audit.lostUpdates} decrements lost.`,
        timeline: timeline(ctx, 'none: every request in the critical section at once', grants, []),
      };
    });
  },
};
