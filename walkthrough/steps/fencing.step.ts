import { lockKey } from '../lock-keys';
import { check, keyBar, timeline, users, withCoupon } from '../scenario';
import { evidence } from './evidence';
import type { Step } from '../step';
import { stalledHolder } from './stalled-holder';
import { stepProse } from './step-prose';

const LEASE_MS = 300;
/** B must have committed before A thaws: four leases leave B about a second. */
const FREEZE_MS = 4 * LEASE_MS;

export const fencingStep: Step = {
  ...stepProse('fencing'),
  requires: ['fenced'],
  uses: ['chaos', 'fault'],
  async run(ctx) {
    return withCoupon(ctx, 'fencing', 10, async (coupon) => {
      const key = lockKey(coupon.id);
      const [ra, rb] = ctx.api.replicas.map((r) => r.id);
      const [ua, ub] = users('fencing', 2);
      const holderA = await stalledHolder(ctx, coupon.id, {
        user: ua,
        via: ra,
        strategy: 'fenced',
        leaseMs: LEASE_MS,
        freezeMs: FREEZE_MS,
      });
      const expiredAt = await ctx.keys.waitUntilGone(key, 10 * LEASE_MS);
      ctx.say(`A's key expired while A is frozen; B on ${rb} takes the lock and commits`);
      const b = await ctx.api.grab(coupon.id, ub, {
        strategy: 'fenced',
        via: rb,
        leaseMs: 20 * LEASE_MS,
        waitMs: LEASE_MS,
      });
      const a = await holderA.answer;
      const { audit, grants, events } = await evidence(ctx, coupon.id);
      const aAcquiredAt = events.find((e) => e.type === 'acquire' && e.replica === ra)?.at;
      const bToken = Number(b.body?.fenceToken ?? grants.find((g) => g.userId === ub)?.fenceToken ?? NaN);
      const bBeforeA = b.answeredAt < a.answeredAt;
      return {
        observed: {
          leaseMs: LEASE_MS,
          freezeMs: FREEZE_MS,
          holderB: b.status,
          bFenceToken: Number.isNaN(bToken) ? null : bToken,
          bCommittedWhileAFrozen: bBeforeA,
          holderA: a.code ? `${a.status} ${a.code}` : a.status,
          grants: audit.grants,
          remainingStock: audit.stock,
          oversold: audit.oversold,
          lostUpdates: audit.lostUpdates,
        },
        checks: [
          check(
            'B granted, while A was frozen',
            `${b.status}${bBeforeA ? ', before A' : ', after A'}`,
            b.status === 200 && bBeforeA,
            '200, before A',
          ),
          check('B carries a fence token', Number.isNaN(bToken) ? null : bToken, bToken > 0, '> 0'),
          check('A, after thawing', a.status, a.status === 409 && a.code === 'FENCE.REJECTED', '409 FENCE.REJECTED'),
          check(
            'grants / lost updates',
            `${audit.grants} / ${audit.lostUpdates}`,
            audit.grants === 1 && audit.lostUpdates === 0 && audit.oversold === 0,
            '1 / 0',
          ),
        ],
        summary: `A's lease ran out while it was frozen; B sold with token ${bToken}; A's late write was refused by the database (${a.status} ${a.code ?? ''}): ${audit.grants} grant, ${audit.lostUpdates} lost updates.`,
        timeline: timeline(ctx, "fencing: the frozen holder's write is refused", grants, events, {
          labels: { [ub]: 'B' },
          bars: [
            keyBar("A's key", holderA.heldAt, expiredAt),
            // A never got a grant row: draw its time in the section from its acquire to its refusal.
            ...(aAcquiredAt
              ? [
                  {
                    lane: ra,
                    start: aAcquiredAt,
                    end: a.answeredAt,
                    row: `segment ${grants[0]?.segment ?? 0}`,
                    label: 'A (refused)',
                  },
                ]
              : []),
          ],
          ticks: [
            { lane: 'redis', at: expiredAt, type: 'expired', detail: "A's lease ran out" },
            { lane: ra, at: a.answeredAt, type: 'fence-rejected', detail: `${a.status} ${a.code}` },
          ],
        }),
      };
    });
  },
};
