import type { Audit, GrabAnswer, Grant } from '@app/contract';
import { check, countStatus, grantBar, users, withCoupon } from '../scenario';
import type { Step, StepContext } from '../step';

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

const exact = (r: Round) =>
  r.audit.grants === STOCK && r.audit.stock === 0 && r.audit.oversold === 0 && r.audit.lostUpdates === 0;
const perStatement = (a: Audit) => Math.round((a.grants / Math.max(a.statements, 1)) * 10) / 10;

export const batchingStep: Step = {
  name: 'batching',
  title: 'Batching: one statement grants many',
  explain:
    `${ONE_BY_ONE} commits once per grant, so the hot row's lock is taken and released once per buyer. ` +
    `${BATCHED} queues the grabs that arrive on a replica while that coupon's statement is in flight; the next ` +
    'statement takes the whole queue, locks the stock row, decrements it by the grants it inserts and commits once. ' +
    'Each buyer still gets its own answer, after the commit. ' +
    `We sell ${STOCK} units to ${USERS} users at once under both, and read from the database how many statements wrote the grants.`,
  expected: `both exact (${STOCK} grants, stock 0, no oversell, no lost update); ${BATCHED} writes them in fewer statements than grants`,
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
        check(
          `${ONE_BY_ONE}: exact`,
          `${single.audit.grants} grants, stock ${single.audit.stock}`,
          exact(single),
          `${STOCK} grants, stock 0`,
        ),
        check(
          `${ONE_BY_ONE}: one statement per grant`,
          single.audit.statements,
          single.audit.statements === single.audit.grants,
          `${STOCK}`,
        ),
        check(
          `${BATCHED}: exact`,
          `${batched.audit.grants} grants, stock ${batched.audit.stock}`,
          exact(batched),
          `${STOCK} grants, stock 0`,
        ),
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
