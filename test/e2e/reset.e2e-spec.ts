import { setTimeout as sleep } from 'node:timers/promises';
import { audit, burst } from './support/grabs';
import { admin, createCoupon, http, testStack, type Coupon, type ErrorBody, type StackInfo } from './support/stack';

jest.setTimeout(120_000);

const reset = <T = Coupon>(info: StackInfo, id: number | string, body: unknown) =>
  http<T>('POST', `${info.nginxUrl}/coupons/${id}/reset`, body, admin(info));

async function healthy(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await http('GET', `${url}/health`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`${url} not healthy within ${timeoutMs} ms`);
    await sleep(100);
  }
}

describe('POST /coupons/:id/reset', () => {
  it('puts the stock back, deletes the grants and can change the segment count', async () => {
    const info = testStack();
    const coupon = await createCoupon(info, 5);
    expect((await burst(info.nginxUrl, coupon.id, 8, { strategy: 'db-atomic' })).granted).toBe(5);

    const res = await reset(info, coupon.id, { stock: 12, segments: 3 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: coupon.id, name: coupon.name, stock: 12, initialStock: 12, segments: 3 });
    expect((await http('GET', `${info.nginxUrl}/coupons/${coupon.id}`)).body).toMatchObject({
      stock: 12,
      segments: 3,
      grants: 0,
    });
    expect(await audit(info, coupon.id)).toEqual({
      initialStock: 12,
      stock: 12,
      grants: 0,
      oversold: 0,
      lostUpdates: 0,
      maxConcurrentHolders: 0,
      statements: 0,
    });

    // The new segments are real rows: a segmented burst sells exactly them.
    expect((await burst(info.nginxUrl, coupon.id, 20, { strategy: 'segmented', workMs: 1 })).granted).toBe(12);
    expect(await audit(info, coupon.id)).toMatchObject({ stock: 0, grants: 12, oversold: 0, lostUpdates: 0 });
  });

  it('keeps the segment count when none is given', async () => {
    const info = testStack();
    const coupon = await createCoupon(info, 4, 2);
    const res = await reset(info, coupon.id, { stock: 6 });
    expect(res.body).toEqual({ id: coupon.id, name: coupon.name, stock: 6, initialStock: 6, segments: 2 });
  });

  it('clears the lock a crashed setnx holder left behind', async () => {
    const info = testStack();
    const [victim, other] = info.replicas;
    const coupon = await createCoupon(info, 3);
    const grab = (url: string, userId: string, query: string) =>
      http('POST', `${url}/coupons/${coupon.id}/grab?strategy=setnx&${query}`, { userId }).then(
        (r) => r.status,
        () => 0,
      );

    expect(await grab(victim.url, 'crasher', 'crash=1')).toBe(0); // the connection drops with the process
    expect(await grab(other.url, 'stuck', 'waitMs=200')).toBe(429);
    expect((await reset(info, coupon.id, { stock: 3 })).status).toBe(200);
    expect(await grab(other.url, 'after-reset', 'waitMs=200')).toBe(200);
    expect(await audit(info, coupon.id)).toMatchObject({ stock: 2, grants: 1, oversold: 0, lostUpdates: 0 });
    await healthy(victim.url); // the supervisor restarts it; later specs expect three replicas
  });

  it('answers 404 for an unknown coupon and touches nothing', async () => {
    const info = testStack();
    const res = await reset<ErrorBody>(info, 999_999_999, { stock: 1 });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'COUPON.NOT_FOUND' });
  });
});
