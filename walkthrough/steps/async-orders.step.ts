import type { GrabAnswer, Grant } from '@app/contract';
import { awaitOrderDrain, DEFAULT_PERSISTER, orderKeys } from '@app/redis-stock';
import { summarizeLatencies } from '@app/stock';
import { check, countStatus, statusCounts, timeline, users, waitForReplica, withCoupon } from '../scenario';
import type { Step, StepContext } from '../step';
import { evidence } from './evidence';
import { persisterKillChecks, processStarts } from './persister-kill';
import { stepProse } from './step-prose';

const STRATEGY = 'redis-stream';
const STOCK = 60;
const BUYERS = 150;
const WAITING = 5;
/** Longer than the persisters' reclaim idle time (5 s by default) twice over. */
const RECLAIM_WAIT_MS = 12_000;

/** Waits until the coupon's stream holds no order; how long that took (ms). */
const drained = async (ctx: StepContext, couponId: number, timeoutMs = 30_000) =>
  (await awaitOrderDrain(ctx.keys.redis, couponId, { timeoutMs })).waitedMs;

const counter = async (ctx: StepContext, couponId: number) =>
  Number(await ctx.keys.redis.get(orderKeys(couponId).counter));

/** The stack Redis's append-only file policy: `off`, or its appendfsync. */
async function appendFsync(ctx: StepContext): Promise<string> {
  const [, appendonly] = (await ctx.keys.redis.config('GET', 'appendonly')) as [string, string];
  if (appendonly !== 'yes') return 'off';
  const [, policy] = (await ctx.keys.redis.config('GET', 'appendfsync')) as [string, string];
  return policy;
}

/** Each grant's time from Redis's acceptance to its row's write (ms). */
const acceptToDurableMs = (grants: readonly Grant[]) =>
  grants.flatMap((g) => (g.acceptedAt ? [Date.parse(g.leftAt) - Date.parse(g.acceptedAt)] : []));

const grabEach = (ctx: StepContext, couponId: number, who: readonly string[], crashFirst = false) =>
  Promise.all(
    who.map((u, i) =>
      ctx.api.grab(couponId, u, { strategy: STRATEGY, ...(crashFirst && i === 0 ? { crash: 'after-commit' } : {}) }),
    ),
  );

/** How Redis comes back after its SIGKILL: from no file at all, or from an append-only file fsynced always. */
type KillCase = 'no-file' | 'always';

const caseLabel = (c: KillCase) => (c === 'no-file' ? 'no append-only file' : 'appendfsync always');

/**
 * Orders accepted while PostgreSQL is down wait in Redis; Redis is SIGKILLed and brought back,
 * either without its file (as a Redis that persists nothing) or from a file fsynced at every write.
 * Counted from the database once drained: accepted orders that never became grants.
 */
async function redisKillRound(ctx: StepContext, couponId: number, how: KillCase) {
  await ctx.api.resetCoupon(couponId, { stock: STOCK });
  if (how === 'always') await ctx.keys.redis.config('SET', 'appendfsync', 'always');
  await Promise.all(
    ctx.api.replicas.map((r, i) => ctx.api.grab(couponId, `warm-${how}-${i}`, { strategy: STRATEGY, via: r.id })),
  );
  await drained(ctx, couponId);
  await ctx.control('/postgres/stop');
  let waiting: GrabAnswer[];
  try {
    waiting = await Promise.all(
      users(`kept-${how}`, WAITING).map((u, i) =>
        ctx.api.grab(couponId, u, { strategy: STRATEGY, via: ctx.api.replicas[i % ctx.api.replicas.length].id }),
      ),
    );
    ctx.say(
      `${caseLabel(how)}: ${countStatus(waiting, 202)} order(s) accepted with PostgreSQL stopped; Redis SIGKILLed`,
    );
    // A restart runs with the stack's own arguments again: `always` lasts for this round only.
    await ctx.control('/redis/stop?signal=SIGKILL');
    await ctx.control(how === 'no-file' ? '/redis/start?empty=1' : '/redis/start');
  } finally {
    await ctx.control('/postgres/start');
  }
  // Orders a persister took while PostgreSQL was down are reclaimed after the idle time, then drain.
  await drained(ctx, couponId, RECLAIM_WAIT_MS * 3);
  // A Redis that came back empty has no counter until a grab loads it from the stock of record: one does.
  const loader = await ctx.api.grab(couponId, users(`after-${how}`, 1)[0], { strategy: STRATEGY });
  await drained(ctx, couponId);
  const audit = await ctx.api.audit(couponId);
  const accepted = ctx.api.replicas.length + countStatus([...waiting, loader], 202);
  const redis = await ctx.keys.redis.get(orderKeys(couponId).counter);
  return { how, accepted, lost: accepted - audit.grants, redis, stockOfRecord: audit.stock };
}

type KillRound = Awaited<ReturnType<typeof redisKillRound>>;

function killChecks(round: KillRound) {
  const expectLost = round.how === 'no-file' ? WAITING : 0;
  return [
    check(
      `Redis SIGKILL, ${caseLabel(round.how)}: accepted orders lost`,
      `${round.lost} of ${round.accepted}`,
      round.lost === expectLost,
      String(expectLost),
    ),
    check(
      `after the kill (${caseLabel(round.how)}): Redis counter = stock of record`,
      `${round.redis ?? 'absent'} vs ${round.stockOfRecord}`,
      round.redis !== null && Number(round.redis) === round.stockOfRecord,
      String(round.stockOfRecord),
    ),
  ];
}

export const asyncOrdersStep: Step = {
  ...stepProse('async-orders', { strategy: STRATEGY, stock: STOCK, buyers: BUYERS, waiting: WAITING }),
  requires: [STRATEGY],
  uses: ['chaos', 'fault', 'control'],
  async run(ctx) {
    return withCoupon(ctx, 'async-orders', STOCK, async (coupon) => {
      // 1. A burst: answered from Redis, persisted behind.
      const startedAt = Date.now();
      const burst = await grabEach(ctx, coupon.id, users('burst', BUYERS));
      const answeredMs = Math.max(...burst.map((a) => a.answeredAt)) - startedAt;
      const inFlightAtLastAnswer = await ctx.keys.redis.xlen(orderKeys(coupon.id).orders);
      const durableMs = answeredMs + (await drained(ctx, coupon.id));
      const accepted = countStatus(burst, 202);
      const burstAudit = await ctx.api.audit(coupon.id);
      const redisAfterBurst = await counter(ctx, coupon.id);
      const latency = summarizeLatencies(acceptToDurableMs(await ctx.api.grants(coupon.id)));
      ctx.say(
        `${accepted} accepted in ${answeredMs} ms, ${inFlightAtLastAnswer} still in the stream at the last answer; all durable after ${durableMs} ms`,
      );

      // 2. A persister killed after its commit, before its XACK.
      await ctx.api.resetCoupon(coupon.id, { stock: STOCK });
      const startsBefore = await processStarts(ctx);
      const batchSentAt = Date.now();
      const batch = await grabEach(ctx, coupon.id, users('batch', 20), true);
      const killedAt = Date.now();
      const reclaimMs = await drained(ctx, coupon.id, RECLAIM_WAIT_MS * 2);
      const drainedAfterMs = Date.now() - batchSentAt;
      await Promise.all(ctx.api.replicas.map((r) => waitForReplica(ctx, r.id)));
      const startsAfter = await processStarts(ctx);
      const restarted = ctx.api.replicas.map((r) => r.id).filter((id) => startsAfter.get(id) !== startsBefore.get(id));
      const batchAudit = await ctx.api.audit(coupon.id);
      const batchAccepted = countStatus(batch, 202);
      ctx.say(`a persister died after its commit; its batch was persisted by another ${reclaimMs} ms later`);

      // 3. Redis SIGKILL with accepted orders only in Redis: without a file, then with one fsynced always
      //    (which needs the stack's Redis to restart from its append-only file).
      const policy = await appendFsync(ctx);
      const kills = [await redisKillRound(ctx, coupon.id, 'no-file')];
      if (policy !== 'off') kills.push(await redisKillRound(ctx, coupon.id, 'always'));
      else ctx.say('this stack runs Redis without an append-only file (REDIS_APPENDFSYNC=off): no `always` round');
      const { grants, events } = await evidence(ctx, coupon.id);
      return {
        observed: {
          burst: JSON.stringify(statusCounts(burst)),
          acceptedInMs: answeredMs,
          inFlightAtLastAnswer,
          allDurableInMs: durableMs,
          acceptToDurableP50Ms: latency ? Math.round(latency.p50) : null,
          acceptToDurableP99Ms: latency ? Math.round(latency.p99) : null,
          batchAccepted,
          reclaimedInMs: reclaimMs,
          restartedReplicas: restarted.join(', ') || null,
          appendfsync: policy,
          lostWithoutFile: `${kills[0].lost} of ${kills[0].accepted}`,
          lostWithAppendfsyncAlways: kills[1] ? `${kills[1].lost} of ${kills[1].accepted}` : null,
        },
        checks: [
          check(
            'burst: accepted, the rest sold out',
            JSON.stringify(statusCounts(burst)),
            accepted === STOCK,
            `${STOCK} × 202`,
          ),
          check(
            'burst drained: grants = 202s = initial − stock, Redis = stock of record',
            `${burstAudit.grants} grant(s), stock ${burstAudit.stock}, Redis ${redisAfterBurst}`,
            burstAudit.grants === accepted &&
              burstAudit.stock === STOCK - accepted &&
              redisAfterBurst === burstAudit.stock,
            `${accepted} grant(s), stock ${STOCK - accepted}, Redis ${STOCK - accepted}`,
          ),
          ...persisterKillChecks({
            accepted: batchAccepted,
            audit: batchAudit,
            restarted,
            drainedAfterMs,
            reclaimIdleMs: DEFAULT_PERSISTER.reclaimIdleMs,
          }),
          ...kills.flatMap(killChecks),
        ],
        summary:
          `${accepted} orders accepted in ${answeredMs} ms and durable after ${durableMs} ms; a persister killed ` +
          `after its commit had its batch persisted by another within ${reclaimMs} ms; a Redis SIGKILL lost ` +
          `${kills.map((k) => `${k.lost} of ${k.accepted} accepted orders with ${caseLabel(k.how)}`).join(', and ')}.`,
        timeline: timeline(ctx, 'redis-stream: accepted orders persisted in batches; a Redis kill', grants, events, {
          ticks: [{ lane: 'redis', at: killedAt, type: 'crash', detail: 'a persister died after its commit' }],
        }),
      };
    });
  },
};
