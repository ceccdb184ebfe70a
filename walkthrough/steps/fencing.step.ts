import { lockKey } from '../lock-keys';
import { check, keyBar, timeline, users, withCoupon } from '../scenario';
import { evidence } from './evidence';
import type { Step } from '../step';

const LEASE_MS = 300;
/** B must have committed before A thaws: four leases leave B about a second. */
const FREEZE_MS = 4 * LEASE_MS;

export const fencingStep: Step = {
  name: 'fencing',
  title: 'Fencing tokens: the database refuses the frozen holder',
  explain:
    "Kleppmann's answer to the process pause: every acquisition also gets a number from a counter that only goes up (INCR in the same " +
    'Lua script that takes the lock), and the database accepts a write only if its token is newer than the last one the row accepted ' +
    '(`UPDATE … WHERE fence < $token`). We freeze holder A past its lease again. B takes the lock with a higher token and sells a coupon. ' +
    "When A thaws and writes, its token is older than the row's: the database says no. Two holders still overlapped, but the stale one " +
    'could not do harm.',
  expected: 'B granted with a higher token; A refused with 409 FENCE.REJECTED; no oversell, no lost update',
  requires: ['fenced'],
  uses: ['chaos', 'fault'],
  async run(ctx) {
    return withCoupon(ctx, 'fencing', 10, async (coupon) => {
      const key = lockKey(coupon.id);
      const [ra, rb] = ctx.api.replicas.map((r) => r.id);
      const [ua, ub] = users('fencing', 2);
      ctx.say(`A on ${ra}: fenced, lease ${LEASE_MS} ms, freezeMs=${FREEZE_MS}`);
      const aDone = ctx.api.grab(coupon.id, ua, {
        strategy: 'fenced',
        via: ra,
        leaseMs: LEASE_MS,
        waitMs: LEASE_MS,
        freezeMs: FREEZE_MS,
      });
      await ctx.keys.waitUntilHeld(key, 10_000);
      const seenAt = Date.now();
      const expiredAt = await ctx.keys.waitUntilGone(key, 10 * LEASE_MS);
      ctx.say(`A's key expired while A is frozen; B on ${rb} takes the lock and commits`);
      const b = await ctx.api.grab(coupon.id, ub, {
        strategy: 'fenced',
        via: rb,
        leaseMs: 20 * LEASE_MS,
        waitMs: LEASE_MS,
      });
      const a = await aDone;
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
            keyBar("A's key", seenAt, expiredAt),
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
