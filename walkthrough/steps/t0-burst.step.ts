import { mostInWindow, outOfOrderShare, type Audit, type CrowdBuyer } from '@app/contract';
import { summarizeLatencies } from '@app/stock';
import { check, waitForReplica } from '../scenario';
import type { Step, StepContext } from '../step';
import { stepProse } from './step-prose';

const BUYERS = 300;
const EVERY_MS = 2;
const STOCK = 60;
const ADMIT_PER_SEC = 40;
const WINDOW_MS = 10_000;
const STRATEGY = 'watchdog';
const WORK_MS = 10;

interface Run {
  readonly buyers: CrowdBuyer[];
  readonly audit: Audit;
  /** Buyers whose grab reached the strategy: every one without a room, the admitted ones with it. */
  readonly grabs: number;
  readonly p99Ms: number;
  readonly over1s: number;
}

/** One crowd on its own coupon (reset afterwards, its room's tickets with it). */
async function crowd(ctx: StepContext, room: boolean): Promise<Run> {
  await Promise.all(ctx.api.replicas.map((r) => waitForReplica(ctx, r.id)));
  const coupon = await ctx.api.createCoupon({
    name: `walkthrough t0 ${room ? 'room' : 'no room'}`,
    stock: STOCK,
    ...(room ? { room: { admitPerSec: ADMIT_PER_SEC, windowMs: WINDOW_MS } } : {}),
  });
  try {
    ctx.say(
      `${BUYERS} buyers, one every ${EVERY_MS} ms, ${room ? `through a room of ${ADMIT_PER_SEC}/s` : 'straight at the grab'}`,
    );
    const label = `t0-${room ? 'room' : 'bare'}-${Date.now().toString(36)}`;
    const buyers = await ctx.api.crowd(coupon.id, {
      ...{ buyers: BUYERS, everyMs: EVERY_MS, strategy: STRATEGY, workMs: WORK_MS, label },
      room: room ? { windowMs: WINDOW_MS } : undefined,
    });
    const first = buyers.map((b) => (b.firstAt ?? Infinity) - b.scheduledAt);
    return {
      buyers,
      audit: await ctx.api.audit(coupon.id),
      grabs: room ? buyers.filter((b) => b.admittedAt !== undefined).length : BUYERS,
      p99Ms: summarizeLatencies(first)?.p99 ?? 0,
      over1s: first.filter((ms) => ms > 1000).length,
    };
  } finally {
    await ctx.api
      .resetCoupon(coupon.id, { stock: STOCK })
      .catch((error) => ctx.say(`cleanup: reset failed: ${(error as Error).message}`));
  }
}

export const t0BurstStep: Step = {
  ...stepProse('t0-burst', {
    buyers: BUYERS,
    everyMs: EVERY_MS,
    stock: STOCK,
    admitPerSec: ADMIT_PER_SEC,
    strategy: STRATEGY,
    firstArrivals: STOCK * 1.2,
  }),
  requires: [STRATEGY],
  async run(ctx) {
    const bare = await crowd(ctx, false);
    const room = await crowd(ctx, true);
    const answered = room.buyers.filter((b) => b.firstStatus && b.firstStatus < 500).length;
    // Order judged by when each join was sent: this client's own lateness is not the room's doing.
    const sent = room.buyers.map((b) => ({ ticket: b.ticket, scheduledAt: b.sentAt ?? b.scheduledAt }));
    const outOfOrder = outOfOrderShare(sent, 50);
    const perSecond = mostInWindow(
      room.buyers.flatMap((b) => (b.admittedAt ? [b.admittedAt] : [])),
      1000,
    );
    const early = room.buyers.filter((b) => b.index < STOCK * 1.2 && b.outcome === '200').length;
    const exact = (r: Run) => r.audit.grants === STOCK && r.audit.oversold === 0;
    return {
      observed: {
        'without a room: first answer p99 ms': bare.p99Ms,
        'without a room: waited over 1 s': bare.over1s,
        'without a room: grabs that reached the strategy': bare.grabs,
        'with a room: first answer (the join) p99 ms': room.p99Ms,
        'with a room: waited over 1 s': room.over1s,
        'with a room: grabs that reached the strategy': room.grabs,
        'with a room: most admitted in 1 s': perSecond,
        'with a room: grants to the first arrivals': early,
      },
      checks: [
        check(
          'both runs: grants / oversold',
          `${bare.audit.grants}+${room.audit.grants} / ${bare.audit.oversold + room.audit.oversold}`,
          exact(bare) && exact(room),
          `${STOCK}+${STOCK} / 0`,
        ),
        check('with a room: joins answered (no 5xx)', answered, answered === BUYERS, `= ${BUYERS}`),
        check(
          'with a room: joins out of arrival order (50 ms apart)',
          `${(outOfOrder * 100).toFixed(2)}%`,
          outOfOrder <= 0.01,
          '≤ 1%',
        ),
        check('with a room: most admitted in any 1 s', perSecond, perSecond <= ADMIT_PER_SEC, `≤ ${ADMIT_PER_SEC}`),
        check(
          'with a room: grabs that reached the strategy',
          room.grabs,
          room.grabs <= STOCK + (room.audit.room?.expired ?? 0),
          `≤ ${STOCK} + expired`,
        ),
        check(
          `with a room: grants to the first ${STOCK * 1.2} arrivals`,
          early,
          early >= 0.9 * STOCK,
          `≥ ${0.9 * STOCK}`,
        ),
      ],
      summary:
        `Without a room all ${BUYERS} grabs hit the ${STRATEGY} lock (first answer p99 ${bare.p99Ms} ms, ${bare.over1s} waited over 1 s); ` +
        `with one, ${room.grabs} reached it, admitted in arrival order at ≤ ${perSecond}/s, and the rest learnt "sold-out" from Redis (join p99 ${room.p99Ms} ms, ${room.over1s} over 1 s).`,
    };
  },
};
