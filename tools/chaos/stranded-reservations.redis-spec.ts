import { RedisStock, type StockOfRecord } from '@app/redis-stock';
import { SoldOutError, type GrantRequest } from '@app/stock';
import { connectStackRedis } from '../orders/stream-drain';
import { observeStranded } from './stranded-reservations';

// The redis project's private server (test/redis/global-setup.ts); tools may not import test/.
const redisUrl = process.env.REDIS_TEST_URL ?? '';
if (!redisUrl) throw new Error('REDIS_TEST_URL is not set: run with --selectProjects redis');
const redis = connectStackRedis({ redisUrl });
const couponId = 2_000_000 + Math.floor(Math.random() * 1_000_000);
const req = (userId: string): GrantRequest => ({ couponId, userId, strategy: 'redis-lua', replica: 'spec' });

/** PostgreSQL's side in memory (the stock of record and its grants); Redis is real. */
const db = { stock: 2, granted: [] as string[] };
const records: StockOfRecord = {
  currentStock: () => Promise.resolve(db.stock),
  grantedUsers: (_, users) => Promise.resolve(new Set(users.filter((u) => db.granted.includes(u)))),
  loadCounter: () => Promise.resolve({ stock: db.stock, epoch: '1', buyers: [] }),
  persist: (r) => {
    if (db.stock <= 0) return Promise.resolve(null);
    db.stock -= 1;
    db.granted.push(r.userId);
    return Promise.resolve({ segment: 0, remaining: db.stock });
  },
};

class Killed extends Error {}

afterAll(() => redis.quit());

it('observes the reservation a grab killed between reserve and persist left, while Redis says sold out', async () => {
  const stock = new RedisStock(redis, records);
  await stock.take(req('a'));
  // The replica dies right after the Lua stock-take: nothing persists the unit or gives it back.
  const die = () => {
    throw new Killed();
  };
  await expect(stock.take(req('b'), { afterReserve: die })).rejects.toBeInstanceOf(Killed);

  // Until the lease ends, the next buyer is told sold out while the stock of record has the unit.
  await expect(stock.take(req('c'))).rejects.toBeInstanceOf(SoldOutError);
  expect(db.stock).toBe(1);
  // a's settled reservation, if its unawaited ZREM has not run yet, is accounted for by its grant.
  expect(await observeStranded({ redisUrl }, couponId, db.granted)).toBe(1);
});
