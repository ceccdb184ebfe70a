import { probeClient } from '../../../test/redis/lock-kit';
import { orderKeys } from './order-commands';
import { awaitOrderDrain } from './order-drain';

const redis = probeClient();
let couponId = 5_000_000 + Math.floor(Math.random() * 1_000_000);

afterAll(() => redis.quit());
beforeEach(() => {
  couponId += 1;
});

const addOrder = (id: number) => redis.xadd(orderKeys(id).orders, '*', 'userId', 'u');

describe('awaitOrderDrain on a real Redis', () => {
  it('answers drained at once for a coupon with no stream, with no counter and no dead letter', async () => {
    const stream = await awaitOrderDrain(redis, couponId, { timeoutMs: 1000 });
    expect(stream).toMatchObject({ drained: true, counter: null, deadLettered: 0 });
    expect(stream.waitedMs).toBeLessThan(1000);
  });

  it('waits while an order is in the stream and answers once it is gone, with the counter and the dead letters', async () => {
    const keys = orderKeys(couponId);
    const entry = await addOrder(couponId);
    await redis.set(keys.counter, 7);
    await redis.xadd(keys.dead, '*', 'userId', 'lost');
    const waiting = awaitOrderDrain(redis, couponId, { timeoutMs: 30_000 });
    let settled = false;
    void waiting.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 200));
    expect(settled).toBe(false);
    await redis.xdel(keys.orders, entry!);
    const stream = await waiting;
    expect(stream).toMatchObject({ drained: true, counter: 7, deadLettered: 1 });
    expect(stream.waitedMs).toBeGreaterThanOrEqual(200);
  });

  it('gives up after its timeout, answering not drained', async () => {
    await addOrder(couponId);
    const stream = await awaitOrderDrain(redis, couponId, { timeoutMs: 150 });
    expect(stream.drained).toBe(false);
    expect(stream.waitedMs).toBeGreaterThanOrEqual(150);
  });

  it('stops at once when its signal aborts, answering not drained', async () => {
    await addOrder(couponId);
    const abort = new AbortController();
    const waiting = awaitOrderDrain(redis, couponId, { timeoutMs: 30_000, signal: abort.signal });
    abort.abort();
    const stream = await waiting;
    expect(stream.drained).toBe(false);
    expect(stream.waitedMs).toBeLessThan(30_000);
  });
});
