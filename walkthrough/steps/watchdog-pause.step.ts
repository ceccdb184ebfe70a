import { lockKey } from '../lock-keys';
import { check, count, section, sleep, timeline, users, withCoupon } from '../scenario';
import { evidence } from './evidence';
import type { Step } from '../step';
import type { TimelineTick } from '../timeline/timeline-model';
import { stalledHolder } from './stalled-holder';
import { stepProse } from './step-prose';

// Renewals every lease/3 must survive a busy machine's event-loop hiccups: a roomier lease.
const LEASE_MS = 500;
const PAUSE_MS = 3 * LEASE_MS;

export const watchdogPauseStep: Step = {
  ...stepProse('watchdog-pause', { leaseMs: LEASE_MS, pauseMs: PAUSE_MS }),
  requires: ['watchdog'],
  uses: ['chaos', 'fault'],
  async run(ctx) {
    return withCoupon(ctx, 'watchdog-pause', 10, async (coupon) => {
      const key = lockKey(coupon.id);
      const [ra, rb] = ctx.api.replicas.map((r) => r.id);
      const [ua, ub] = users('watchdog-pause', 2);
      const holderA = await stalledHolder(ctx, coupon.id, {
        user: ua,
        via: ra,
        strategy: 'watchdog',
        leaseMs: LEASE_MS,
        pauseMs: PAUSE_MS,
      });
      await sleep(LEASE_MS + 100);
      const later = await ctx.keys.peek(key);
      const ticks: TimelineTick[] = [
        {
          lane: 'redis',
          at: Date.now(),
          type: later.exists ? 'still-held' : 'expired',
          detail: `TTL ${later.pttlMs} ms, ${Date.now() - holderA.heldAt} ms after A took it`,
        },
      ];
      ctx.say(
        `${Date.now() - holderA.heldAt} ms after A took it the key ${later.exists ? `is still held (TTL ${later.pttlMs} ms)` : 'is gone'}; B on ${rb}`,
      );
      const b = await ctx.api.grab(coupon.id, ub, {
        strategy: 'watchdog',
        via: rb,
        leaseMs: LEASE_MS,
        waitMs: 20 * LEASE_MS,
        workMs: 100,
      });
      const a = await holderA.answer;
      const { audit, grants, events } = await evidence(ctx, coupon.id);
      const renewals = events.filter((e) => e.type === 'renew' && e.replica === ra).length;
      const ga = grants.find((g) => g.userId === ua);
      const gb = grants.find((g) => g.userId === ub);
      const bAfterAMs = ga && gb ? section(gb).start - section(ga).end : null;
      return {
        observed: {
          leaseMs: LEASE_MS,
          pauseMs: PAUSE_MS,
          keyHeldOneLeaseLater: later.exists,
          ttlOneLeaseLaterMs: later.pttlMs,
          renewals,
          holderA: a.status,
          holderB: b.status,
          bEnteredAfterALeftMs: bAfterAMs,
          maxConcurrentHolders: audit.maxConcurrentHolders,
          lostUpdates: audit.lostUpdates,
          lostEvents: count(events, 'lost'),
          firstHolder: holderA.held.holder,
        },
        checks: [
          check('key one lease after A took it', later.exists ? 'held' : 'gone', later.exists, 'held'),
          check('renewals by A', renewals, renewals >= 2, '≥ 2'),
          check('A and B granted', `${a.status}/${b.status}`, a.status === 200 && b.status === 200, '200/200'),
          check('B entered after A left', bAfterAMs, bAfterAMs !== null && bAfterAMs >= 0, '≥ 0 ms'),
          check('max concurrent holders', audit.maxConcurrentHolders, audit.maxConcurrentHolders === 1, '= 1'),
          check('lost updates', audit.lostUpdates, audit.lostUpdates === 0, '= 0'),
        ],
        summary: `The watchdog renewed A's lease ${renewals} times through a ${PAUSE_MS} ms pause; B waited and entered ${bAfterAMs} ms after A left.`,
        timeline: timeline(ctx, 'watchdog: renewals carry a slow holder, B waits its turn', grants, events, {
          ticks,
          labels: { [ua]: 'A', [ub]: 'B' },
        }),
      };
    });
  },
};
