import { lockKey } from '../lock-keys';
import { check, count, keyBar, timeline, users, withCoupon } from '../scenario';
import { evidence } from './evidence';
import type { LockEvent } from '@app/contract';
import type { Step } from '../step';
import { stepProse } from './step-prose';

const WAIT_MS = 400;
const LEASE_MS = 5000;

export const nestedStep: Step = {
  ...stepProse('nested', { waitMs: WAIT_MS }),
  requires: ['owner-checked', 'reentrant'],
  uses: ['chaos'],
  async run(ctx) {
    return withCoupon(ctx, 'nested', 10, async (coupon) => {
      const key = lockKey(coupon.id);
      const [via] = ctx.api.replicas.map((r) => r.id);
      const [u1, u2] = users('nested', 2);
      ctx.say(`owner-checked, nested=1, on ${via}`);
      const deadlocked = await ctx.api.grab(coupon.id, u1, {
        strategy: 'owner-checked',
        via,
        nested: true,
        waitMs: WAIT_MS,
        leaseMs: LEASE_MS,
      });
      const afterDeadlock = await ctx.keys.peek(key);
      ctx.say(`reentrant, nested=1, on ${via}`);
      const reentrant = await ctx.api.grab(coupon.id, u2, {
        strategy: 'reentrant',
        via,
        nested: true,
        waitMs: WAIT_MS,
        leaseMs: LEASE_MS,
      });
      const afterReentrant = await ctx.keys.peek(key);
      const { audit, grants, events } = await evidence(ctx, coupon.id);
      const deadlockMs = deadlocked.answeredAt - deadlocked.sentAt;
      const reentrantAcquires = events.filter((e) => e.strategy === 'reentrant' && e.type === 'acquire').length;
      return {
        observed: {
          ownerCheckedNested: deadlocked.code ? `${deadlocked.status} ${deadlocked.code}` : deadlocked.status,
          ownerCheckedAnsweredAfterMs: deadlockMs,
          keyAfterOwnerChecked: afterDeadlock.exists ? 'left behind' : 'released',
          reentrantNested: reentrant.status,
          reentrantAnsweredAfterMs: reentrant.answeredAt - reentrant.sentAt,
          reentrantAcquireEvents: reentrantAcquires,
          keyAfterReentrant: afterReentrant.exists ? 'left behind' : 'released',
          timeoutEvents: count(events, 'timeout'),
          grants: audit.grants,
        },
        checks: [
          check(
            'owner-checked nested',
            deadlocked.status,
            deadlocked.status === 429 && deadlocked.code === 'LOCK.TIMEOUT',
            '429 LOCK.TIMEOUT',
          ),
          check('owner-checked waited its budget', deadlockMs, deadlockMs >= WAIT_MS, `≥ ${WAIT_MS} ms`),
          check('reentrant nested', reentrant.status, reentrant.status === 200, '200'),
          check(
            'key after both',
            afterDeadlock.exists || afterReentrant.exists ? 'left behind' : 'released',
            !afterDeadlock.exists && !afterReentrant.exists,
            'released',
          ),
          check('grants', audit.grants, audit.grants === 1, '1 (the reentrant one)'),
        ],
        summary: `owner-checked waited ${deadlockMs} ms on its own lock and gave up (${deadlocked.status}); reentrant took it twice and granted (${reentrant.status}).`,
        timeline: timeline(ctx, 'nested: a lock that waits for itself, and one that counts', grants, events, {
          // The outer owner-checked lock has no grant to draw: show its key, held while the inner call waited on it.
          bars: [
            keyBar(
              'owner-checked: held by the caller, awaited by itself',
              outerHeldAt(events) ?? deadlocked.sentAt,
              deadlocked.answeredAt,
            ),
          ],
        }),
      };
    });
  },
};

function outerHeldAt(events: readonly LockEvent[]): number | undefined {
  return events.find((e) => e.strategy === 'owner-checked' && e.type === 'acquire')?.at;
}
