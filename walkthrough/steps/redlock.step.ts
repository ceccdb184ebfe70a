import { check, countStatus, statusCounts, timeline, users, withCoupon } from '../scenario';
import type { Step, StepContext } from '../step';
import { stepProse } from './step-prose';

const STOCK = 5;
const USERS = 12;
const WORK_MS = 30;

async function setNodes(ctx: StepContext, indexes: number[], verb: 'stop' | 'start'): Promise<void> {
  for (const i of indexes) await ctx.control(`/redlock/${i}/${verb}`);
}

export const redlockStep: Step = {
  ...stepProse('redlock', { stock: STOCK }),
  requires: ['redlock'],
  uses: ['chaos', 'fault', 'control'],
  async run(ctx) {
    const down: number[] = [];
    try {
      return await withCoupon(ctx, 'redlock', STOCK, async (coupon) => {
        ctx.say('stopping redlock node 0');
        await setNodes(ctx, [0], 'stop');
        down.push(0);
        const crowd = await Promise.all(
          users('redlock', USERS).map((u) =>
            ctx.api.grab(coupon.id, u, { strategy: 'redlock', workMs: WORK_MS, waitMs: 20_000, leaseMs: 5000 }),
          ),
        );
        const [audit, grants] = await Promise.all([ctx.api.audit(coupon.id), ctx.api.grants(coupon.id)]);
        ctx.say('stopping redlock nodes 1 and 2: two of five left');
        await setNodes(ctx, [1, 2], 'stop');
        down.push(1, 2);
        // A coupon with stock left: a sold-out coupon is answered before any lock is asked for.
        const refused = await withCoupon(ctx, 'redlock three down', STOCK, (fresh) =>
          Promise.all(
            users('redlock-3down', 3).map((u, i) =>
              ctx.api.grab(fresh.id, u, {
                strategy: 'redlock',
                via: ctx.api.replicas[i % ctx.api.replicas.length].id,
                waitMs: 500,
                leaseMs: 5000,
              }),
            ),
          ),
        );
        const refusals = refused.filter((r) => r.status === 429 || r.status === 503).length;
        return {
          observed: {
            nodesDownFirst: 1,
            granted: countStatus(crowd, 200),
            statuses: JSON.stringify(statusCounts(crowd)),
            oversold: audit.oversold,
            lostUpdates: audit.lostUpdates,
            maxConcurrentHolders: audit.maxConcurrentHolders,
            nodesDownThen: 3,
            grabsWithThreeDown: refused.length,
            refusedWithThreeDown: refusals,
            statusesWithThreeDown: JSON.stringify(statusCounts(refused)),
          },
          checks: [
            check('one down: grants', audit.grants, audit.grants === STOCK, `= ${STOCK}`),
            check(
              'one down: max concurrent holders',
              audit.maxConcurrentHolders,
              audit.maxConcurrentHolders === 1,
              '= 1',
            ),
            check('one down: lost updates', audit.lostUpdates, audit.lostUpdates === 0, '= 0'),
            check(
              'three down: grabs refused',
              refusals,
              refusals === refused.length,
              `${refused.length} of ${refused.length} (429 or 503)`,
            ),
          ],
          summary: `With one node down Redlock sold exactly ${audit.grants} of ${STOCK}, one holder at a time; with three down it refused ${refusals} of ${refused.length} grabs.`,
          timeline: timeline(ctx, 'redlock with one node down: one holder at a time', grants, []),
        };
      });
    } finally {
      await setNodes(ctx, down, 'start').catch((error) =>
        ctx.say(`restoring redlock nodes failed: ${(error as Error).message}`),
      );
    }
  },
};
