import { check, count, timeline, withCoupon } from '../scenario';
import { evidence } from './evidence';
import type { Step } from '../step';
import { pausedPastLease } from './paused-past-lease';
import { stepProse } from './step-prose';

const LEASE_MS = 300;

export const ownerCheckedStep: Step = {
  ...stepProse('owner-checked'),
  requires: ['owner-checked'],
  uses: ['chaos', 'fault'],
  async run(ctx) {
    return withCoupon(ctx, 'owner-checked', 10, async (coupon) => {
      const run = await pausedPastLease(ctx, coupon, 'owner-checked', LEASE_MS);
      const { audit, grants, events } = await evidence(ctx, coupon.id);
      const refused = count(events, 'release-refused');
      const foreign = count(events, 'foreign-delete');
      return {
        observed: {
          leaseMs: LEASE_MS,
          holderA: run.a.status,
          holderB: run.b.status,
          keyAfterARelease: run.keyAfterARelease.exists ? "still B's" : 'gone',
          releaseRefusedEvents: refused,
          foreignDeleteEvents: foreign,
          holderC: run.c.code ? `${run.c.status} ${run.c.code}` : run.c.status,
          maxConcurrentHolders: audit.maxConcurrentHolders,
          lostUpdates: audit.lostUpdates,
          grants: audit.grants,
        },
        checks: [
          check(
            "B's key after A released",
            run.keyAfterARelease.exists ? 'present' : 'gone',
            run.keyAfterARelease.exists,
            'present',
          ),
          check('release-refused events', refused, refused >= 1, '≥ 1'),
          check('foreign-delete events', foreign, foreign === 0, '0'),
          check('C, sent while B holds', run.c.status, run.c.status === 429, '429 LOCK.TIMEOUT'),
          check('max concurrent holders', audit.maxConcurrentHolders, audit.maxConcurrentHolders >= 2, '≥ 2'),
        ],
        summary: `A's release was refused and B kept its lock (C got ${run.c.status}), but A and B were inside together: ${audit.maxConcurrentHolders} holders at once, ${audit.lostUpdates} lost update(s).`,
        timeline: timeline(ctx, 'owner-checked: the key is safe, the data is not', grants, events, run),
      };
    });
  },
};
