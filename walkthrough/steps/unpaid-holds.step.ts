import type { Audit, CallAnswer, HoldOptions } from '@app/contract';
import { check, sleep, users, withCoupon } from '../scenario';
import type { Step, StepContext } from '../step';
import { stepProse } from './step-prose';

/** A deadline long enough to pay within. */
const HOLD_MS = 60_000;
/** The deadline of holds never paid, and of the raced ones: short, so the step need not wait long. */
const SHORT_MS = 400;
const PAID = 3;
const UNPAID = 2;

const holdIdOf = (answer: CallAnswer) => String(answer.body?.holdId);
const exact = (a: Audit) => a.initialStock === a.stock + (a.held ?? 0) + (a.confirmed ?? 0);
const accounts = (a: Audit) => `stock ${a.stock} + held ${a.held} + confirmed ${a.confirmed} vs ${a.initialStock}`;

/** A buyer holds a unit, then pays: the confirm's answer (the hold's when it was refused). */
async function holdAndPay(
  ctx: StepContext,
  couponId: number,
  userId: string,
  holdMs = HOLD_MS,
  options: HoldOptions = {},
) {
  const hold = await ctx.api.hold(couponId, userId, holdMs, { holds: options.holds });
  if (hold.status !== 201) return hold;
  return ctx.api.confirmHold(couponId, holdIdOf(hold), { raceExpiry: options.raceExpiry });
}

/** Waits until no hold of the coupon is open (the sweepers ran); the audit then. */
async function untilNoneHeld(ctx: StepContext, couponId: number, timeoutMs = 10_000): Promise<Audit> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    const audit = await ctx.api.audit(couponId);
    if (audit.held === 0 || Date.now() > giveUpAt) return audit;
    await sleep(50);
  }
}

/** A payment begun before the deadline that commits after the expiry ran; then the unit is sold again. */
async function race(ctx: StepContext, couponId: number, naive: boolean) {
  const late = await holdAndPay(ctx, couponId, 'late-payer', SHORT_MS, {
    holds: naive ? 'naive' : undefined,
    raceExpiry: true,
  });
  const afterExpiry = await untilNoneHeld(ctx, couponId);
  const next = await holdAndPay(ctx, couponId, 'next-buyer');
  const audit = await ctx.api.audit(couponId);
  ctx.say(
    `${naive ? 'naive' : 'exact'}: the late confirm answered ${late.status}${late.code ? ` ${late.code}` : ''}; ` +
      `the stock after the expiry ${afterExpiry.stock}; the next buyer ${next.status}; ${accounts(audit)}`,
  );
  return { late, next, audit };
}

export const unpaidHoldsStep: Step = {
  ...stepProse('unpaid-holds', { holdMs: SHORT_MS, paid: PAID, unpaid: UNPAID }),
  requires: [],
  uses: ['chaos'],
  async run(ctx) {
    const sale = await withCoupon(ctx, 'unpaid-holds', PAID + UNPAID, async (coupon) => {
      const paid = await Promise.all(users('payer', PAID).map((u) => holdAndPay(ctx, coupon.id, u)));
      const unpaid = await Promise.all(users('sleeper', UNPAID).map((u) => ctx.api.hold(coupon.id, u, SHORT_MS)));
      const refused = await ctx.api.hold(coupon.id, 'one-too-many', HOLD_MS);
      ctx.say(`${PAID} holds paid; ${UNPAID} held and never paid; one more buyer: ${refused.status} ${refused.code}`);
      const lastDeadline = Math.max(...unpaid.map((h) => Date.parse(String(h.body?.expiresAt))));
      const returned = await untilNoneHeld(ctx, coupon.id);
      const returnedMs = Date.now() - lastDeadline;
      ctx.say(`the sweepers gave back ${returned.expired} unit(s), ${returnedMs} ms after the last deadline at most`);
      const resold = await Promise.all(users('second-chance', UNPAID).map((u) => holdAndPay(ctx, coupon.id, u)));
      return { paid, refused, returned, returnedMs, resold, audit: await ctx.api.audit(coupon.id) };
    });
    const naive = await withCoupon(ctx, 'unpaid-holds naive race', 1, (c) => race(ctx, c.id, true));
    const exactRace = await withCoupon(ctx, 'unpaid-holds exact race', 1, (c) => race(ctx, c.id, false));
    const paidOk = sale.paid.filter((a) => a.status === 200).length;
    const resoldOk = sale.resold.filter((a) => a.status === 200).length;
    return {
      observed: {
        paidInTime: paidOk,
        expired: sale.returned.expired ?? null,
        returnedWithinMs: sale.returnedMs,
        soldAgain: resoldOk,
        saleAccounts: accounts(sale.audit),
        naiveLateConfirm: naive.late.status,
        naiveGrants: naive.audit.grants,
        naiveOversold: naive.audit.oversold,
        exactLateConfirm: `${exactRace.late.status} ${exactRace.late.code ?? ''}`.trim(),
        exactGrants: exactRace.audit.grants,
        exactOversold: exactRace.audit.oversold,
      },
      checks: [
        check('holds paid in time become grants', paidOk, paidOk === PAID, String(PAID)),
        check('no unit to hold while every unit is held', sale.refused.status, sale.refused.status === 409, '409'),
        check('unpaid holds expired', sale.returned.expired ?? 0, sale.returned.expired === UNPAID, String(UNPAID)),
        check('their units sold again', resoldOk, resoldOk === UNPAID, String(UNPAID)),
        check(
          'the sale accounts for every unit',
          accounts(sale.audit),
          exact(sale.audit) && sale.audit.stock === 0 && sale.audit.oversold === 0,
          `stock 0 + held 0 + confirmed ${PAID + UNPAID}`,
        ),
        check('naive: the late confirm is accepted', naive.late.status, naive.late.status === 200, '200'),
        check(
          'naive: the unit is sold twice',
          `${naive.audit.grants} grant(s) of 1, ${accounts(naive.audit)}`,
          naive.audit.grants === 2 && naive.audit.oversold === 1 && !exact(naive.audit),
          '2 grant(s) of 1',
        ),
        check(
          'exact: the late confirm is refused',
          `${exactRace.late.status} ${exactRace.late.code}`,
          exactRace.late.status === 409 && exactRace.late.code === 'HOLD.EXPIRED',
          '409 HOLD.EXPIRED',
        ),
        check(
          'exact: the unit sold once, every unit accounted for',
          `${exactRace.audit.grants} grant(s), ${accounts(exactRace.audit)}`,
          exactRace.audit.grants === 1 && exactRace.audit.oversold === 0 && exact(exactRace.audit),
          '1 grant, exact',
        ),
      ],
      summary:
        `${paidOk} holds paid in time, ${sale.returned.expired} unpaid ones expired and sold again; the naive race ` +
        `sold its one unit ${naive.audit.grants} times, the exact one refused the late confirm and sold it ${exactRace.audit.grants} time.`,
    };
  },
};
