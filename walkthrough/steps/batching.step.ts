import type { Audit, GrabAnswer, Grant } from '@app/contract';
import { check, countStatus, grantBar, users, withCoupon } from '../scenario';
import type { Step, StepContext } from '../step';
import { stepProse } from './step-prose';

const STOCK = 100;
const USERS = 300;
const BATCHED = 'db-batched';
const ONE_BY_ONE = 'db-atomic';

interface Round {
  results: GrabAnswer[];
  audit: Audit;
  grants: Grant[];
  elapsedMs: number;
}

async function round(ctx: StepContext, strategy: string): Promise<Round> {
  return withCoupon(ctx, `batching ${strategy}`, STOCK, async (coupon) => {
    ctx.say(`${USERS} users at once for ${STOCK} units, ${strategy}`);
    const started = Date.now();
    const results = await Promise.all(
      users(`batch-${strategy}`, USERS).map((u) => ctx.api.grab(coupon.id, u, { strategy })),
    );
    const elapsedMs = Date.now() - started;
    const [audit, grants] = await Promise.all([ctx.api.audit(coupon.id), ctx.api.grants(coupon.id)]);
    return { results, audit, grants, elapsedMs };
  });
}

/** Sold out exactly under `strategy`: every unit granted once, none oversold or lost. */
const exactCheck = (strategy: string, { audit }: Round) =>
  check(
    `${strategy}: exact`,
    `${audit.grants} grants, stock ${audit.stock}`,
    audit.grants === STOCK && audit.stock === 0 && audit.oversold === 0 && audit.lostUpdates === 0,
    `${STOCK} grants, stock 0`,
  );
const perStatement = (a: Audit) => Math.round((a.grants / Math.max(a.statements, 1)) * 10) / 10;

export const batchingStep: Step = {
  ...stepProse('batching', { oneByOne: ONE_BY_ONE, batched: BATCHED, stock: STOCK, users: USERS }),
  requires: [BATCHED, ONE_BY_ONE],
  async run(ctx) {
    const single = await round(ctx, ONE_BY_ONE);
    const batched = await round(ctx, BATCHED);
    const largest = Math.max(0, ...batchSizes(batched.grants));
    return {
      observed: {
        stock: STOCK,
        users: USERS,
        atomicGrants: single.audit.grants,
        atomicStatements: single.audit.statements,
        atomicElapsedMs: single.elapsedMs,
        batchedGrants: batched.audit.grants,
        batchedAcknowledged: countStatus(batched.results, 200),
        batchedStatements: batched.audit.statements,
        batchedGrantsPerStatement: perStatement(batched.audit),
        batchedLargestBatch: largest,
        batchedStockLeft: batched.audit.stock,
        batchedOversold: batched.audit.oversold,
        batchedLostUpdates: batched.audit.lostUpdates,
        batchedElapsedMs: batched.elapsedMs,
      },
      checks: [
        exactCheck(ONE_BY_ONE, single),
        check(
          `${ONE_BY_ONE}: one statement per grant`,
          single.audit.statements,
          single.audit.statements === single.audit.grants,
          `${STOCK}`,
        ),
        exactCheck(BATCHED, batched),
        check(
          `${BATCHED}: every 200 is a grant row`,
          countStatus(batched.results, 200),
          countStatus(batched.results, 200) === batched.audit.grants,
          `${batched.audit.grants}`,
        ),
        check(
          `${BATCHED}: fewer statements than grants`,
          batched.audit.statements,
          batched.audit.statements < batched.audit.grants,
          `< ${batched.audit.grants}`,
        ),
      ],
      summary:
        `Both sold exactly ${STOCK}: ${ONE_BY_ONE} in ${single.audit.statements} statements (${single.elapsedMs} ms), ` +
        `${BATCHED} in ${batched.audit.statements} (${perStatement(batched.audit)} grants per statement, the largest batch ${largest}; ${batched.elapsedMs} ms).`,
      // A batch's grants share one entry time: they stack up as one column per statement.
      timeline: {
        title: `${BATCHED}: each replica's grants, a batch's grants entering together`,
        lanes: [...new Set(batched.grants.map((g) => g.replica))].sort(),
        bars: batched.grants.map((g) => grantBar(g)),
        ticks: [],
      },
    };
  },
};

/** Grants per batch, told apart by their shared entry time and replica (the database clock's). */
function batchSizes(grants: readonly Grant[]): number[] {
  const sizes = new Map<string, number>();
  for (const g of grants) sizes.set(`${g.replica} ${g.enteredAt}`, (sizes.get(`${g.replica} ${g.enteredAt}`) ?? 0) + 1);
  return [...sizes.values()];
}
