import { check, countStatus, statusCounts, timeline, users, withCoupon } from '../scenario';
import type { Step } from '../step';
import { stepProse } from './step-prose';

const STOCK = 3;
const PER_REPLICA = 4;
const WORK_MS = 150;

export const synchronizedStep: Step = {
  ...stepProse('synchronized', { users: PER_REPLICA * 3, stock: STOCK, perReplica: PER_REPLICA }),
  requires: ['synchronized'],
  async run(ctx) {
    const [one] = ctx.api.replicas;
    const single = await withCoupon(ctx, 'synchronized (one replica)', STOCK, async (coupon) => {
      ctx.say(`${PER_REPLICA * 3} grabs at once, all to ${one.id}`);
      const results = await Promise.all(
        users('sync1', PER_REPLICA * 3).map((u) =>
          ctx.api.grab(coupon.id, u, { strategy: 'synchronized', via: one.id, workMs: WORK_MS / 5 }),
        ),
      );
      return { results, audit: await ctx.api.audit(coupon.id) };
    });
    return withCoupon(ctx, 'synchronized (three replicas)', STOCK, async (coupon) => {
      ctx.say(`${PER_REPLICA} grabs at once to each of ${ctx.api.replicas.map((r) => r.id).join(', ')}`);
      const ids = users('sync3', PER_REPLICA * ctx.api.replicas.length);
      const results = await Promise.all(
        ids.map((u, i) =>
          ctx.api.grab(coupon.id, u, {
            strategy: 'synchronized',
            via: ctx.api.replicas[i % ctx.api.replicas.length].id,
            workMs: WORK_MS,
          }),
        ),
      );
      const [audit, grants] = await Promise.all([ctx.api.audit(coupon.id), ctx.api.grants(coupon.id)]);
      const exact = single.audit.grants === STOCK && single.audit.oversold === 0 && single.audit.lostUpdates === 0;
      return {
        observed: {
          stock: STOCK,
          oneReplicaGranted: countStatus(single.results, 200),
          oneReplicaStatuses: JSON.stringify(statusCounts(single.results)),
          oneReplicaOversold: single.audit.oversold,
          oneReplicaLostUpdates: single.audit.lostUpdates,
          oneReplicaMaxConcurrentHolders: single.audit.maxConcurrentHolders,
          threeReplicasGranted: countStatus(results, 200),
          threeReplicasOversold: audit.oversold,
          threeReplicasLostUpdates: audit.lostUpdates,
          threeReplicasMaxConcurrentHolders: audit.maxConcurrentHolders,
        },
        checks: [
          check('one replica: grants', single.audit.grants, single.audit.grants === STOCK, `= ${STOCK}`),
          check('one replica: oversold', single.audit.oversold, single.audit.oversold === 0, '= 0'),
          check(
            'one replica: max concurrent holders',
            single.audit.maxConcurrentHolders,
            single.audit.maxConcurrentHolders === 1,
            '= 1',
          ),
          check('three replicas: oversold', audit.oversold, audit.oversold > 0, '> 0'),
          check(
            'three replicas: max concurrent holders',
            audit.maxConcurrentHolders,
            audit.maxConcurrentHolders > 1,
            '> 1',
          ),
        ],
        summary: `${exact ? 'Exact' : 'NOT exact'} on one replica (${single.audit.grants} of ${STOCK}); across three replicas ${audit.grants} granted, oversold by ${audit.oversold}.`,
        timeline: timeline(
          ctx,
          'synchronized across three replicas: one holder per replica, three at once',
          grants,
          [],
        ),
      };
    });
  },
};
