import { ApiError, type Grant } from '@app/contract';
import { check, timeline, users, waitForReplica, withCoupon } from '../scenario';
import { evidence } from './evidence';
import type { Step, StepContext } from '../step';
import { stepProse } from './step-prose';

const STRATEGY = 'db-atomic';

/** The buyer's grant, or the code of the answer that says there is none. */
async function storedGrant(ctx: StepContext, couponId: number, userId: string): Promise<Grant | string> {
  try {
    return await ctx.api.grant(couponId, userId);
  } catch (error) {
    if (error instanceof ApiError) return error.errorCode ?? String(error.status);
    throw error;
  }
}

export const lostAnswerStep: Step = {
  ...stepProse('lost-answer', { strategy: STRATEGY }),
  requires: [STRATEGY],
  uses: ['chaos', 'fault'],
  async run(ctx) {
    return withCoupon(ctx, 'lost-answer', 2, async (coupon) => {
      const [victim] = ctx.api.replicas;
      const [buyer] = users('lost-answer', 1);
      ctx.say(`${buyer} grabs on ${victim.id}, which commits and dies before answering (crash=after-commit)`);
      const crashed = await ctx.api.grab(coupon.id, buyer, {
        strategy: STRATEGY,
        via: victim.id,
        crash: 'after-commit',
      });
      const restartMs = await waitForReplica(ctx, victim.id);
      ctx.say(`${victim.id} is back after ${restartMs} ms; the buyer asks whether it got the coupon`);
      const stored = await storedGrant(ctx, coupon.id, buyer);
      ctx.say(`then it grabs again, as a client that retries would`);
      const retry = await ctx.api.grab(coupon.id, buyer, { strategy: STRATEGY });
      const carried = retry.body?.grant as Grant | undefined;
      const { audit, grants, events } = await evidence(ctx, coupon.id);
      const found = typeof stored !== 'string';
      return {
        observed: {
          crashedRequest: crashed.status === 0 ? `dropped (${crashed.code})` : crashed.status,
          replicaRestartMs: restartMs,
          grantFound: found ? `yes, by ${stored.replica}` : stored,
          retry: retry.code ? `${retry.status} ${retry.code}` : retry.status,
          retryCarriesGrant: found && carried?.userId === stored.userId && carried.enteredAt === stored.enteredAt,
          grants: audit.grants,
          stock: audit.stock,
          oversold: audit.oversold,
        },
        checks: [
          check('crashed grab got no answer', crashed.status, crashed.status === 0, 'dropped connection'),
          check('grant stored for the buyer', found ? stored.replica : stored, found, `a grant by ${victim.id}`),
          check(
            'retried grab',
            `${retry.status} ${retry.code ?? ''}`.trim(),
            retry.status === 409 && retry.code === 'GRANT.DUPLICATE',
            '409 GRANT.DUPLICATE',
          ),
          check(
            'the retry carries the stored grant',
            carried?.enteredAt ?? null,
            found && carried?.userId === stored.userId && carried.enteredAt === stored.enteredAt,
            found ? stored.enteredAt : 'the grant',
          ),
          check(
            'stock and grants agree',
            `${audit.grants} grant(s), stock ${audit.stock}`,
            audit.grants === 1 && audit.stock === 1 && audit.oversold === 0 && audit.lostUpdates === 0,
            '1 grant(s), stock 1',
          ),
        ],
        summary: found
          ? `The buyer's connection broke, yet its grant was committed by ${stored.replica}; asking found it, and the retry answered ${retry.status} ${retry.code ?? ''} instead of selling twice.`
          : `The buyer's connection broke and no grant was found (${stored}).`,
        timeline: timeline(ctx, 'crash=after-commit: the grant is stored, the answer lost', grants, events, {
          ticks: [
            { lane: victim.id, at: crashed.answeredAt, type: 'crash', detail: `${victim.id} died after its commit` },
          ],
        }),
      };
    });
  },
};
