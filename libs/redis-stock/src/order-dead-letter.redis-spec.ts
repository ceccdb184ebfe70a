import { acceptOrder, deadLetterArgs, nextCouponId, orderClient } from '../../../test/redis/order-kit';
import { orderKeys, PERSISTERS_GROUP } from './order-commands';

const redis = orderClient();
let couponId = 0;
beforeEach(() => (couponId = nextCouponId()));

const keys = () => orderKeys(couponId);
const accept = (user: string) => {
  const k = keys();
  return acceptOrder(redis, k, user);
};
const giveUp = (orderId: string, refusal: 'sold-out' | 'duplicate') => {
  const k = keys();
  return redis.orderDeadLetter(...deadLetterArgs(k), orderId, 1, 'refused', refusal);
};

/** A counter of `units` in epoch 1, one order of `user` taken from it and delivered to consumer c1. */
async function deliveredOrder(units: number, user: string): Promise<string> {
  await redis.set(keys().counter, units);
  await redis.set(keys().epoch, '1');
  const [, orderId] = (await accept(user)) as [number, string];
  await redis.xgroup('CREATE', keys().orders, PERSISTERS_GROUP, '0');
  await redis.xreadgroup('GROUP', PERSISTERS_GROUP, 'c1', 'STREAMS', keys().orders, '>');
  return orderId;
}

describe('order-dead-letter on a real Redis: a refusal by the database', () => {
  it('sold out: the unit is not given back (the counter was above the stock of record), the buyer is forgotten', async () => {
    const orderId = await deliveredOrder(2, 'a');
    expect(await giveUp(orderId, 'sold-out')).toBe(1);
    expect({
      counter: await redis.get(keys().counter),
      buyer: await redis.hexists(keys().buyers, 'a'),
      stream: await redis.xlen(keys().orders),
    }).toEqual({ counter: '1', buyer: 0, stream: 0 });
  });

  it('a duplicate: its unit goes back, and its user, who holds a grant, is still refused a new order', async () => {
    const orderId = await deliveredOrder(2, 'a');
    expect(await giveUp(orderId, 'duplicate')).toBe(1);
    expect({ counter: await redis.get(keys().counter), stream: await redis.xlen(keys().orders) }).toEqual({
      counter: '2',
      stream: 0,
    });
    expect(await accept('a')).toBe(-3);
    // Never told pending: the buyer's lookup finds the grant in the database first.
    const k = keys();
    expect((await redis.orderLookup(k.buyers, k.orders, k.deadBuyers, 'a'))?.[0]).not.toBe('pending');
  });
});
