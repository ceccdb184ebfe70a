import Redis from 'ioredis';
import { waitFor } from '../../tools/stack/servers/child';
import { audit } from './support/grabs';
import { createCoupon, http, testStack } from './support/stack';

jest.setTimeout(60_000);

// A buyer who hangs up while its grab waits for the lock: the grab leaves the wait at once and
// never runs its section. Sequenced on Redis: the buyer's replica is queued, then it is not.
it('a grab whose client hangs up while it waits for the lock leaves the queue and takes nothing', async () => {
  const info = testStack();
  const redis = new Redis(info.redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const coupon = await createCoupon(info, 5);
    const lock = `lock:{coupon:${coupon.id}}`;
    const [holderReplica, buyerReplica] = info.replicas;
    const holder = http('POST', `${holderReplica.url}/coupons/${coupon.id}/grab?strategy=owner-checked&pauseMs=4000`, {
      userId: 'holder',
    });
    await waitFor('the holder inside', async () => (await redis.exists(lock)) === 1, 5000, 10);
    const client = new AbortController();
    const buyer = fetch(`${buyerReplica.url}/coupons/${coupon.id}/grab?strategy=owner-checked`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: 'gone' }),
      signal: client.signal,
    }).then(
      () => 'answered',
      () => 'hung up',
    );
    await waitFor('the buyer queued behind it', async () => (await redis.llen(`${lock}:queue`)) === 1, 5000, 10);
    client.abort();
    expect(await buyer).toBe('hung up');
    await waitFor('the buyer off the queue', async () => (await redis.llen(`${lock}:queue`)) === 0, 2000, 10);
    expect(await redis.exists(lock)).toBe(1); // while the holder is still inside
    expect((await holder).status).toBe(200);
    expect(await audit(info, coupon.id)).toMatchObject({ grants: 1, stock: 4 });
  } finally {
    redis.disconnect();
  }
});
