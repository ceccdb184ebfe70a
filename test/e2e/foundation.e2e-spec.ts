import { burstOnFreshCoupon, exactAudit, soldExactly } from './support/sell-out';
import { testStack } from './support/stack';

jest.setTimeout(120_000);

describe("the seeds' bug, counted from the database", () => {
  it('none through nginx: concurrent grabs oversell, and the audit agrees with the 200s seen', async () => {
    const info = testStack();
    const query = { strategy: 'none', workMs: 5 };
    const { seen, result } = await burstOnFreshCoupon(info, { via: info.nginxUrl, stock: 50, users: 300, query });
    expect(result.oversold + result.lostUpdates).toBeGreaterThan(0);
    expect(result.grants).toBe(seen.granted);
    expect(result.lostUpdates).toBe(result.grants - (result.initialStock - result.stock));
    expect(result.maxConcurrentHolders).toBeGreaterThan(1);
  });

  it('synchronized on one replica: exactly the stock is granted, nothing lost', async () => {
    const info = testStack();
    const query = { strategy: 'synchronized', workMs: 5 };
    const { seen, result } = await burstOnFreshCoupon(info, {
      via: info.replicas[0].url,
      stock: 50,
      users: 300,
      query,
    });
    expect(seen.counts).toEqual(soldExactly(50, 300));
    expect(result).toEqual(exactAudit(50));
  });

  it('synchronized through nginx: three replicas, three mutexes, oversold', async () => {
    const info = testStack();
    const query = { strategy: 'synchronized', workMs: 5 };
    const { seen, result } = await burstOnFreshCoupon(info, { via: info.nginxUrl, stock: 50, users: 300, query });
    expect(result.grants).toBe(seen.granted);
    expect(result.oversold).toBeGreaterThan(0);
    expect(result.lostUpdates).toBeGreaterThan(0);
    expect(result.maxConcurrentHolders).toBeGreaterThan(1);
    expect(result.maxConcurrentHolders).toBeLessThanOrEqual(3);
  });
});
