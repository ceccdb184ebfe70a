import { check, countStatus, statusCounts, timeline, users, withCoupon } from '../scenario';
import type { Step } from '../step';
import { stepProse } from './step-prose';

const STOCK = 5;
const USERS = 20;
const WORK_MS = 300;

export const noneStep: Step = {
  ...stepProse('none', { stock: STOCK, users: USERS, workMs: WORK_MS }),
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
