import { audit, burst } from './support/grabs';
import { createCoupon, testStack } from './support/stack';

jest.setTimeout(120_000);

describe("the seeds' bug, counted from the database", () => {
  it('none through nginx: concurrent grabs oversell, and the audit agrees with the 200s seen', async () => {
    const info = testStack();
    const coupon = await createCoupon(info, 50);
    const seen = await burst(info.nginxUrl, coupon.id, 300, { strategy: 'none', workMs: 5 });
    const result = await audit(info, coupon.id);
    expect(result.oversold + result.lostUpdates).toBeGreaterThan(0);
    expect(result.grants).toBe(seen.granted);
    expect(result.lostUpdates).toBe(result.grants - (result.initialStock - result.stock));
    expect(result.maxConcurrentHolders).toBeGreaterThan(1);
  });

  it('synchronized on one replica: exactly the stock is granted, nothing lost', async () => {
    const info = testStack();
    const coupon = await createCoupon(info, 50);
    const seen = await burst(info.replicas[0].url, coupon.id, 300, { strategy: 'synchronized', workMs: 5 });
    expect(seen.counts).toEqual({ '200': 50, '409 STOCK.SOLD_OUT': 250 });
    expect(await audit(info, coupon.id)).toEqual({
      initialStock: 50,
      stock: 0,
      grants: 50,
      oversold: 0,
      lostUpdates: 0,
      maxConcurrentHolders: 1,
      statements: 50,
    });
  });

  it('synchronized through nginx: three replicas, three mutexes, oversold', async () => {
    const info = testStack();
    const coupon = await createCoupon(info, 50);
    const seen = await burst(info.nginxUrl, coupon.id, 300, { strategy: 'synchronized', workMs: 5 });
    const result = await audit(info, coupon.id);
    expect(result.grants).toBe(seen.granted);
    expect(result.oversold).toBeGreaterThan(0);
    expect(result.lostUpdates).toBeGreaterThan(0);
    expect(result.maxConcurrentHolders).toBeGreaterThan(1);
    expect(result.maxConcurrentHolders).toBeLessThanOrEqual(3);
  });
});
