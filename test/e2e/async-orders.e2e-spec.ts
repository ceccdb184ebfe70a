import { summarizeLatencies } from '@app/stock';
import { OrderProbe, orderProbe, STRATEGY, statuses, users } from './support/orders';
import { control, type StackInfo } from './support/stack';

jest.setTimeout(180_000);

/** The persisters' reclaim idle time (the replicas' default, ORDER_RECLAIM_IDLE_MS). */
const RECLAIM_IDLE_MS = 15_000;

/** After the drain: grants = 202s = initial − stock, nobody twice, Redis's counter = the stock of record. */
async function expectInvariants(probe: OrderProbe, couponId: number, accepted: number, initial: number) {
  await probe.drained(couponId);
  const { audit, usersGrantedTwice, redisCounter } = await probe.figures(couponId);
  expect({ grants: audit.grants, soldByStock: initial - audit.stock, usersGrantedTwice, redisCounter }).toEqual({
    grants: accepted,
    soldByStock: accepted,
    usersGrantedTwice: 0,
    redisCounter: audit.stock,
  });
}

/**
 * Accepted orders left in Redis only (PostgreSQL stopped, so no persister can write them), then
 * Redis killed with SIGKILL and both brought back: how many accepted orders never became grants.
 */
async function ordersLostToRedisKill(probe: OrderProbe, info: StackInfo, waiting: number, restart: string) {
  const coupon = await probe.api.createCoupon({ stock: 100 });
  const warm = await probe.warmEveryReplica(coupon.id, 'warm');
  expect(warm.map((a) => a.status)).toEqual(info.replicas.map(() => 202));
  await probe.drained(coupon.id);
  await control(info, '/postgres/stop');
  let accepted = 0;
  try {
    const answers = await Promise.all(
      users('kept-in-redis', waiting).map((u, i) =>
        probe.api.at(info.replicas[i % info.replicas.length].url).grab(coupon.id, u, { strategy: STRATEGY }),
      ),
    );
    accepted = answers.filter((a) => a.status === 202).length;
    expect(accepted).toBe(waiting);
    expect(await probe.inFlight(coupon.id)).toBe(waiting);
    await control(info, '/redis/stop?signal=SIGKILL');
    await control(info, restart);
  } finally {
    await control(info, '/postgres/start');
  }
  // Orders a persister had taken before the kill are reclaimed once idle, then drained; an order is
  // deleted from the stream only once its grant committed, so an empty stream is the final count.
  await probe.drained(coupon.id, 4 * RECLAIM_IDLE_MS);
  // A Redis that came back empty has no counter until a grab loads it from the stock of record: one does.
  const [loader] = await probe.grabAll(coupon.id, users('after-restart', 1));
  expect(loader.status).toBe(202);
  await probe.drained(coupon.id);
  const { audit, usersGrantedTwice, redisCounter } = await probe.figures(coupon.id);
  return {
    accepted: warm.length + accepted,
    lost: warm.length + accepted + 1 - audit.grants,
    usersGrantedTwice,
    counterInStep: redisCounter === audit.stock,
  };
}

describe('redis-stream on the stack: accept first, persist later', () => {
  const probe = orderProbe();
  const { info } = probe;

  it('accepts exactly the stock with 202, the rest sold out; once drained every invariant holds', async () => {
    const coupon = await probe.api.createCoupon({ stock: 50 });
    const [first] = users('first', 1);
    expect((await probe.api.grab(coupon.id, first, { strategy: STRATEGY })).status).toBe(202);
    const again = await probe.api.grab(coupon.id, first, { strategy: STRATEGY });
    expect([again.status, again.code]).toEqual([409, 'GRANT.DUPLICATE']);
    const answers = await probe.grabAll(coupon.id, users('burst', 200));
    expect(statuses(answers)).toEqual({ '202': 49, '409 STOCK.SOLD_OUT': 151 });
    const accepted = answers.find((a) => a.status === 202)!;
    expect(accepted.body).toMatchObject({ accepted: true, couponId: coupon.id, strategy: STRATEGY });
    expect(accepted.body?.orderId).toMatch(/^\d+-\d+$/);
    await expectInvariants(probe, coupon.id, 50, 50);
    const latency = summarizeLatencies(await probe.latenciesMs(coupon.id));
    expect(latency).toMatchObject({ count: 50 });
    expect(latency!.p50).toBeGreaterThanOrEqual(0);
  });

  it('while PostgreSQL is down, orders wait in the stream (lookup 202 pending); once it is back they are persisted', async () => {
    const coupon = await probe.api.createCoupon({ stock: 10 });
    await probe.warmEveryReplica(coupon.id, 'warm');
    await probe.drained(coupon.id);
    const [buyer] = users('waiting', 1);
    await control(info, '/postgres/stop');
    let orderId: unknown;
    try {
      const answer = await probe.api.at(info.replicas[0].url).grab(coupon.id, buyer, { strategy: STRATEGY });
      expect(answer.status).toBe(202);
      orderId = answer.body?.orderId;
      expect(await probe.api.lookupGrant(coupon.id, buyer)).toEqual({ state: 'pending', orderId });
    } finally {
      await control(info, '/postgres/start');
    }
    await probe.drained(coupon.id);
    expect(await probe.api.lookupGrant(coupon.id, buyer)).toMatchObject({
      state: 'granted',
      grant: { userId: buyer, strategy: STRATEGY },
    });
    expect(await probe.api.lookupGrant(coupon.id, 'nobody-here')).toEqual({ state: 'none' });
    await expectInvariants(probe, coupon.id, info.replicas.length + 1, 10);
  });

  it('crash=after-accept: the buyer gets no answer, yet the order is persisted and found by the lookup', async () => {
    const coupon = await probe.api.createCoupon({ stock: 5 });
    const [buyer] = users('after-accept', 1);
    const answer = await probe.api.at(info.replicas[1].url).grab(coupon.id, buyer, {
      strategy: STRATEGY,
      crash: 'after-accept',
    });
    expect(answer.status).toBe(0);
    await probe.drained(coupon.id);
    expect(await probe.api.lookupGrant(coupon.id, buyer)).toMatchObject({ state: 'granted' });
    await expectInvariants(probe, coupon.id, 1, 5);
  });

  it('a persister killed after its commit, before XACK: another reclaims the batch within 2 × the idle time, nothing granted twice', async () => {
    const coupon = await probe.api.createCoupon({ stock: 40 });
    await probe.warmEveryReplica(coupon.id, 'warm');
    await probe.drained(coupon.id);
    const before = await control<{ replicas: { id: string; restarts: number }[] }>(info, '/state');
    const crowd = users('batch', 30);
    const answers = await Promise.all(
      crowd.map((u, i) =>
        probe.api.grab(coupon.id, u, { strategy: STRATEGY, ...(i === 0 ? { crash: 'after-commit' as const } : {}) }),
      ),
    );
    const killedAt = Date.now();
    const reclaimedInMs = await probe.drained(coupon.id, 4 * RECLAIM_IDLE_MS);
    expect(Date.now() - killedAt).toBeLessThanOrEqual(2 * RECLAIM_IDLE_MS + 1000);
    expect(reclaimedInMs).toBeGreaterThan(0);
    const after = await control<{ replicas: { id: string; restarts: number }[] }>(info, '/state');
    const restarts = (s: typeof before) => s.replicas.reduce((n, r) => n + r.restarts, 0);
    expect(restarts(after)).toBe(restarts(before) + 1);
    // A grab in flight on the replica that died got no answer: the lookup tells whether it was accepted.
    const accepted = answers.filter((a) => a.status === 202).map((a) => a.userId);
    const unanswered = answers.filter((a) => a.status !== 202).map((a) => a.userId);
    const lookups = await Promise.all(unanswered.map((u) => probe.api.lookupGrant(coupon.id, u)));
    // Each nginx worker (one per core: 2 here) deals its share round-robin over the 3 replicas, so
    // the one that died was sent at most 10 of the 30 plus one per worker: the others accepted 19.
    expect(accepted.length).toBeGreaterThanOrEqual(19);
    for (const u of accepted) expect(await probe.api.lookupGrant(coupon.id, u)).toMatchObject({ state: 'granted' });
    const acceptedUnheard = lookups.filter((l) => l.state === 'granted').length;
    await expectInvariants(probe, coupon.id, info.replicas.length + accepted.length + acceptedUnheard, 40);
  });

  it('Redis SIGKILL, brought back without its append-only file: accepted orders vanish, counted from the database', async () => {
    const result = await ordersLostToRedisKill(probe, info, 6, '/redis/start?empty=1');
    expect(result).toEqual({ accepted: info.replicas.length + 6, lost: 6, usersGrantedTwice: 0, counterInStep: true });
  });

  // The stack's Redis keeps an append-only file (REDIS_APPENDFSYNC, everysec by default); a restart
  // runs with the stack's own arguments again, so `always` set here lasts for that case only.
  it.each([['everysec'], ['always']])('Redis SIGKILL with appendfsync %s loses no accepted order', async (policy) => {
    await probe.redis.config('SET', 'appendfsync', policy);
    const result = await ordersLostToRedisKill(probe, info, 6, '/redis/start');
    expect(result).toEqual({ accepted: info.replicas.length + 6, lost: 0, usersGrantedTwice: 0, counterInStep: true });
  });
});
