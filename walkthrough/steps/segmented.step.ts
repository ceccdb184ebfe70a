import type { Audit, GrabAnswer, Grant } from '@app/contract';
import { check, countStatus, grantBar, timedGrabs, users, withCoupon } from '../scenario';
import type { Step, StepContext } from '../step';
import { stepProse } from './step-prose';

const STOCK = 40;
const SEGMENTS = 4;
const USERS = 60;
const WORK_MS = 50;
/** The single-lock strategy segmented is measured against: the same lock (watchdog) on the whole coupon. */
const SINGLE = 'watchdog';

interface Round {
  results: GrabAnswer[];
  audit: Audit;
  grants: Grant[];
  elapsedMs: number;
  perSecond: number;
}

async function round(ctx: StepContext, strategy: string, segments: number): Promise<Round> {
  return withCoupon(
    ctx,
    `segmented vs ${strategy}`,
    STOCK,
    async (coupon) => {
      ctx.say(`${USERS} users at once, ${strategy}, ${segments} segment(s), ${WORK_MS} ms of work each`);
      const buyers = users(`seg-${strategy}`, USERS);
      const { results, elapsedMs, perSecond } = await timedGrabs(ctx, coupon.id, buyers, { strategy, workMs: WORK_MS });
      const [audit, grants] = await Promise.all([ctx.api.audit(coupon.id), ctx.api.grants(coupon.id)]);
      return { results, audit, grants, elapsedMs, perSecond: perSecond(audit.grants) };
    },
    segments,
  );
}

const exact = (r: Round) =>
  r.audit.grants === STOCK && r.audit.oversold === 0 && r.audit.lostUpdates === 0 && r.audit.maxConcurrentHolders === 1;

export const segmentedStep: Step = {
  ...stepProse('segmented', {
    segments: SEGMENTS,
    perSegment: STOCK / SEGMENTS,
    stock: STOCK,
    users: USERS,
    workMs: WORK_MS,
  }),
  requires: ['segmented', SINGLE],
  uses: ['chaos'],
  async run(ctx) {
    const single = await round(ctx, SINGLE, 1);
    const segmented = await round(ctx, 'segmented', SEGMENTS);
    const speedup = Math.round((segmented.perSecond / Math.max(single.perSecond, 1)) * 100) / 100;
    return {
      observed: {
        stock: STOCK,
        users: USERS,
        singleGrants: single.audit.grants,
        singleSoldOut: countStatus(single.results, 409),
        singleElapsedMs: single.elapsedMs,
        singleGrantsPerSecond: single.perSecond,
        singleMaxConcurrentHolders: single.audit.maxConcurrentHolders,
        segments: SEGMENTS,
        segmentedGrants: segmented.audit.grants,
        segmentedElapsedMs: segmented.elapsedMs,
        segmentedGrantsPerSecond: segmented.perSecond,
        segmentedMaxConcurrentHolders: segmented.audit.maxConcurrentHolders,
        segmentedOversold: segmented.audit.oversold,
        segmentedLostUpdates: segmented.audit.lostUpdates,
        speedup,
      },
      checks: [
        check(
          `${SINGLE}: exact`,
          `${single.audit.grants} grants, ${single.audit.lostUpdates} lost`,
          exact(single),
          `${STOCK} grants, 0 lost, 1 holder`,
        ),
        check(
          'segmented: exact',
          `${segmented.audit.grants} grants, ${segmented.audit.lostUpdates} lost`,
          exact(segmented),
          `${STOCK} grants, 0 lost, 1 holder per row`,
        ),
        check('segmented speed-up', speedup, speedup >= 1.5, '≥ 1.5×'),
      ],
      summary: `Both sold exactly ${STOCK}; one lock took ${single.elapsedMs} ms, ${SEGMENTS} segment locks ${segmented.elapsedMs} ms (${speedup}× the throughput).`,
      // One lane per segment here: each row has its own lock, so bars never overlap within a lane.
      timeline: {
        title: `segmented: ${SEGMENTS} rows, each with its own lock (bars labelled by replica)`,
        lanes: Array.from({ length: SEGMENTS }, (_, i) => `segment ${i}`),
        bars: segmented.grants.map((g) => ({ ...grantBar(g, g.replica), lane: `segment ${g.segment}` })),
        ticks: [],
      },
    };
  },
};
