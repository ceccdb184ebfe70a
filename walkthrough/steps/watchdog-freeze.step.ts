import { check, count, section, timeline, withCoupon } from '../scenario';
import { evidence } from './evidence';
import type { Step } from '../step';
import { pausedPastLease } from './paused-past-lease';
import { stepProse } from './step-prose';

const LEASE_MS = 300;

export const watchdogFreezeStep: Step = {
  ...stepProse('watchdog-freeze', { leaseMs: LEASE_MS, freezeMs: 3 * LEASE_MS }),
  requires: ['watchdog'],
  uses: ['chaos', 'fault'],
  async run(ctx) {
    return withCoupon(ctx, 'watchdog-freeze', 10, async (coupon) => {
      const run = await pausedPastLease(ctx, coupon, 'watchdog', LEASE_MS, { stall: 'freezeMs' });
      const { audit, grants, events } = await evidence(ctx, coupon.id);
      const [ra] = ctx.api.replicas.map((r) => r.id);
      const expiredAt = run.ticks.find((t) => t.type === 'expired')?.at ?? 0;
      const acquiredA = events.find((e) => e.type === 'acquire' && e.replica === ra)?.at ?? 0;
      const renewalsBeforeExpiry = events.filter(
        (e) => e.type === 'renew' && e.replica === ra && e.at >= acquiredA && e.at <= expiredAt,
      ).length;
      const ga = grants.find((g) => g.replica === ra);
      const gb = grants.find(
        (g) => g.replica !== ra && g.userId !== ga?.userId && Date.parse(g.enteredAt) < (ga ? section(ga).end : 0),
      );
      return {
        observed: {
          leaseMs: LEASE_MS,
          freezeMs: 3 * LEASE_MS,
          renewalsDuringFreeze: renewalsBeforeExpiry,
          holderA: run.a.code ? `${run.a.status} ${run.a.code}` : run.a.status,
          holderB: run.b.status,
          lostEvents: count(events, 'lost'),
          bEnteredWhileAInside: Boolean(gb),
          maxConcurrentHolders: audit.maxConcurrentHolders,
          lostUpdates: audit.lostUpdates,
          grants: audit.grants,
        },
        checks: [
          check('renewals while A was frozen', renewalsBeforeExpiry, renewalsBeforeExpiry === 0, '0'),
          check('B granted', run.b.status, run.b.status === 200, '200'),
          check('max concurrent holders', audit.maxConcurrentHolders, audit.maxConcurrentHolders >= 2, '≥ 2'),
        ],
        summary: `Frozen for ${3 * LEASE_MS} ms, A's watchdog never ran; its lease expired, B entered, and ${audit.maxConcurrentHolders} holders were inside at once.`,
        timeline: timeline(ctx, 'watchdog + freeze: the renewer sleeps with its process', grants, events, run),
      };
    });
  },
};
