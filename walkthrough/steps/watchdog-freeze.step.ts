import { check, count, section, timeline, withCoupon } from '../scenario';
import { evidence } from './evidence';
import type { Step } from '../step';
import { pausedPastLease } from './paused-past-lease';

const LEASE_MS = 300;

export const watchdogFreezeStep: Step = {
  name: 'watchdog-freeze',
  title: 'A frozen process freezes its watchdog too: two holders again',
  explain:
    "The watchdog runs inside the holder's process. If the whole process stops (a long garbage-collection pause, a VM migration, SIGSTOP), " +
    `the renewals stop with it. A takes a ${LEASE_MS} ms lease, then its event loop is blocked for ${3 * LEASE_MS} ms (freezeMs): no timer runs. ` +
    'The lease runs out, B takes the lock and enters. When A thaws, it carries on as if it still held the lock. This is the process-pause ' +
    'argument from the Redlock debate: no lease-based lock can stop a holder that does not know it was paused; only the data store can ' +
    '(see fencing tokens).',
  expected:
    'A is not renewed during the freeze, its key expires, B enters, A and B overlap (max concurrent holders ≥ 2)',
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
