import type { Audit, GrabAnswer } from '@app/contract';
import { check, countStatus, timedGrabs, users, withCoupon } from '../scenario';
import type { Check, Step, StepContext } from '../step';
import { stepProse } from './step-prose';

const STOCK = 40;
const USERS = 60;
const WORK_MS = 20;
const LOCK = 'watchdog';
const BASELINES = ['db-atomic', 'db-for-update', 'db-optimistic'];

interface Round {
  strategy: string;
  results: GrabAnswer[];
  audit: Audit;
  elapsedMs: number;
  perSecond: number;
  retries: number;
}

async function round(ctx: StepContext, strategy: string): Promise<Round> {
  return withCoupon(ctx, `baseline ${strategy}`, STOCK, async (coupon) => {
    ctx.say(`${USERS} users at once, ${strategy}`);
    const buyers = users(`base-${strategy}`, USERS);
    const { results, elapsedMs, perSecond } = await timedGrabs(ctx, coupon.id, buyers, { strategy, workMs: WORK_MS });
    const audit = await ctx.api.audit(coupon.id);
    const retries = results.reduce((sum, r) => sum + Number(r.body?.retries ?? 0), 0);
    return { strategy, results, audit, elapsedMs, perSecond: perSecond(audit.grants), retries };
  });
}

export const baselinesStep: Step = {
  ...stepProse('baselines', { stock: STOCK, users: USERS, workMs: WORK_MS, lock: LOCK }),
  requires: [...BASELINES, LOCK],
  uses: ['chaos'],
  async run(ctx) {
    const rounds: Round[] = [];
    for (const strategy of [LOCK, ...BASELINES, ...(ctx.strategies.has('redis-lua') ? ['redis-lua'] : [])])
      rounds.push(await round(ctx, strategy));
    const observed: Record<string, number | string> = {};
    const checks: Check[] = [];
    for (const r of rounds) {
      observed[`${r.strategy} grants`] = r.audit.grants;
      observed[`${r.strategy} elapsed ms`] = r.elapsedMs;
      observed[`${r.strategy} grants per second`] = r.perSecond;
      observed[`${r.strategy} lost updates`] = r.audit.lostUpdates;
      if (r.strategy === 'db-optimistic') {
        observed['db-optimistic retries'] = r.retries;
        observed['db-optimistic gave up (429)'] = countStatus(r.results, 429);
      }
      const mustSellOut = r.strategy !== 'db-optimistic';
      checks.push(
        check(
          `${r.strategy}: oversold / lost updates`,
          `${r.audit.oversold} / ${r.audit.lostUpdates}`,
          r.audit.oversold === 0 && r.audit.lostUpdates === 0,
          '0 / 0',
        ),
      );
      if (mustSellOut)
        checks.push(check(`${r.strategy}: grants`, r.audit.grants, r.audit.grants === STOCK, `= ${STOCK}`));
    }
    const fastest = [...rounds].sort((a, b) => b.perSecond - a.perSecond)[0];
    return {
      observed,
      checks,
      summary: `All exact; fastest was ${fastest.strategy} at ${fastest.perSecond} grants/s (${rounds.map((r) => `${r.strategy} ${r.perSecond}/s`).join(', ')}).`,
    };
  },
};
