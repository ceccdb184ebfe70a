import { lockKey } from '../lock-keys';
import { check, countStatus, keyBar, statusCounts, timeline, users, waitForReplica, withCoupon } from '../scenario';
import { evidence } from './evidence';
import type { Step } from '../step';
import type { TimelineTick } from '../timeline/timeline-model';
import { stepProse } from './step-prose';

const WAIT_MS = 300;

export const setnxCrashStep: Step = {
  ...stepProse('setnx-crash', { waitMs: WAIT_MS }),
  requires: ['setnx'],
  uses: ['chaos', 'fault'],
  async run(ctx) {
    return withCoupon(ctx, 'setnx-crash', 10, async (coupon) => {
      const key = lockKey(coupon.id);
      const [victim] = ctx.api.replicas;
      const [crasher, ...later] = users('setnx', 2 + ctx.api.replicas.length);
      ctx.say(`${victim.id} takes the lock and dies (crash=1)`);
      const crash = await ctx.api.grab(coupon.id, crasher, {
        strategy: 'setnx',
        via: victim.id,
        crash: 'after-acquire',
      });
      const afterCrash = await ctx.keys.peek(key);
      const ticks: TimelineTick[] = [
        { lane: victim.id, at: crash.answeredAt, type: 'crash', detail: `${victim.id} died holding ${key}` },
      ];
      ctx.say(
        `${key}: ${afterCrash.exists ? `still there, TTL ${afterCrash.pttlMs}` : 'gone'}; waiting for the stack to restart ${victim.id}`,
      );
      const restartMs = await waitForReplica(ctx, victim.id);
      ctx.say(`${victim.id} is back after ${restartMs} ms; one grab per replica, ${WAIT_MS} ms budget each`);
      const stuck = await Promise.all(
        ctx.api.replicas.map((r, i) =>
          ctx.api.grab(coupon.id, later[i], { strategy: 'setnx', via: r.id, waitMs: WAIT_MS }),
        ),
      );
      const stillThere = await ctx.keys.peek(key);
      ctx.say(`removing ${key} by hand (DEL), as an operator would`);
      const removed = await ctx.keys.removeByHand(key);
      const removedAt = Date.now();
      ticks.push({ lane: 'redis', at: removedAt, type: 'deleted-by-hand', detail: key });
      const recovered = await ctx.api.grab(coupon.id, later[later.length - 1], {
        strategy: 'setnx',
        via: ctx.api.replicas[1 % ctx.api.replicas.length].id,
        waitMs: WAIT_MS,
      });
      const { audit, grants, events } = await evidence(ctx, coupon.id);
      const timeouts = countStatus(stuck, 429);
      return {
        observed: {
          crashedRequest: crash.status === 0 ? `dropped (${crash.code})` : crash.status,
          keyTtlAfterCrashMs: afterCrash.pttlMs,
          replicaRestartMs: restartMs,
          grabsWhileStuck: stuck.length,
          timedOutWhileStuck: timeouts,
          stuckStatuses: JSON.stringify(statusCounts(stuck)),
          keyTtlBeforeRemovalMs: stillThere.pttlMs,
          removedByHand: removed,
          grabAfterRemoval: recovered.status,
          grants: audit.grants,
          oversold: audit.oversold,
        },
        checks: [
          check('crashed request got no answer', crash.status, crash.status === 0, 'dropped connection'),
          check(
            'lock key TTL after the crash',
            afterCrash.pttlMs,
            afterCrash.exists && afterCrash.pttlMs === -1,
            '-1 (never expires)',
          ),
          check(
            'grabs that timed out while the key stayed',
            timeouts,
            timeouts === stuck.length && stuck.every((r) => r.code === 'LOCK.TIMEOUT'),
            `${stuck.length} of ${stuck.length}, LOCK.TIMEOUT`,
          ),
          check(
            'key still there, still no TTL',
            stillThere.pttlMs,
            stillThere.exists && stillThere.pttlMs === -1,
            '-1',
          ),
          check('grab after removing the key by hand', recovered.status, recovered.status === 200, '200'),
        ],
        summary: `The crashed holder left ${key} with no TTL; ${timeouts} of ${stuck.length} later grabs timed out; only a manual DEL let the next grab through (${recovered.status}).`,
        timeline: timeline(ctx, 'setnx: a holder crashes, the key never expires', grants, events, {
          ticks,
          bars: [keyBar('key, no TTL', crash.answeredAt, removedAt)],
        }),
      };
    });
  },
};
