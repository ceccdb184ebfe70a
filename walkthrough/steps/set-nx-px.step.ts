import { lockKey } from '../lock-keys';
import { check, count, timeline, users, waitForReplica, withCoupon } from '../scenario';
import { evidence } from './evidence';
import type { Step } from '../step';
import { pausedPastLease } from './paused-past-lease';
import { stepProse } from './step-prose';

export const LEASE_MS = 300;
/** The crash part's lease: long enough that the key is surely still there when we look. */
const CRASH_LEASE_MS = 3 * LEASE_MS;

export const setNxPxStep: Step = {
  ...stepProse('set-nx-px', { leaseMs: LEASE_MS, pauseMs: 3 * LEASE_MS }),
  requires: ['set-nx-px'],
  uses: ['chaos', 'fault'],
  async run(ctx) {
    const healed = await withCoupon(ctx, 'set-nx-px crash', 10, async (coupon) => {
      const key = lockKey(coupon.id);
      const [victim, next] = ctx.api.replicas;
      const [crasher, follower] = users('setnxpx-crash', 2);
      ctx.say(`${victim.id} takes the lock with a ${CRASH_LEASE_MS} ms lease and dies`);
      const crash = await ctx.api.grab(coupon.id, crasher, {
        strategy: 'set-nx-px',
        via: victim.id,
        crash: 'after-acquire',
        leaseMs: CRASH_LEASE_MS,
      });
      const afterCrash = await ctx.keys.peek(key);
      const recovered = await ctx.api.grab(coupon.id, follower, {
        strategy: 'set-nx-px',
        via: next.id,
        leaseMs: LEASE_MS,
        waitMs: 5 * CRASH_LEASE_MS,
      });
      await waitForReplica(ctx, victim.id);
      return { crash, afterCrash, recovered, waitedMs: recovered.answeredAt - crash.answeredAt };
    });
    return withCoupon(ctx, 'set-nx-px pause', 10, async (coupon) => {
      const run = await pausedPastLease(ctx, coupon, 'set-nx-px', LEASE_MS);
      const { audit, grants, events } = await evidence(ctx, coupon.id);
      const foreignDeletes = count(events, 'foreign-delete');
      return {
        observed: {
          crashLeaseMs: CRASH_LEASE_MS,
          crashedRequest: healed.crash.status === 0 ? `dropped (${healed.crash.code})` : healed.crash.status,
          keyTtlAfterCrashMs: healed.afterCrash.pttlMs,
          grabAfterCrash: healed.recovered.status,
          healedWithinMs: healed.waitedMs,
          leaseMs: LEASE_MS,
          holderA: run.a.status,
          holderB: run.b.status,
          keyAfterARelease: run.keyAfterARelease.exists ? "still B's" : 'gone',
          holderC: run.c.status,
          foreignDeleteEvents: foreignDeletes,
          maxConcurrentHolders: audit.maxConcurrentHolders,
          lostUpdates: audit.lostUpdates,
          grants: audit.grants,
        },
        checks: [
          check(
            'lock key TTL after the crash',
            healed.afterCrash.pttlMs,
            healed.afterCrash.pttlMs > 0 && healed.afterCrash.pttlMs <= CRASH_LEASE_MS,
            `0 < TTL ≤ ${CRASH_LEASE_MS}`,
          ),
          check(
            'grab after the crash',
            healed.recovered.status,
            healed.recovered.status === 200,
            '200 once the lease ran out',
          ),
          check(
            "B's key after A released",
            run.keyAfterARelease.exists ? 'present' : 'gone',
            !run.keyAfterARelease.exists,
            'gone (A deleted it)',
          ),
          check('foreign-delete events', foreignDeletes, foreignDeletes >= 1, '≥ 1'),
          check('C, sent while B still works', run.c.status, run.c.status === 200, '200 (nothing stops it)'),
          check('max concurrent holders', audit.maxConcurrentHolders, audit.maxConcurrentHolders >= 2, '≥ 2'),
        ],
        summary: `The lease healed the crash in ${healed.waitedMs} ms, but the slow holder outlived its lease: A and B overlapped, A deleted B's lock, and C entered beside B (${audit.maxConcurrentHolders} holders at once, ${audit.lostUpdates} lost updates).`,
        timeline: timeline(ctx, "set-nx-px: A outlives its lease and deletes B's lock", grants, events, run),
      };
    });
  },
};
