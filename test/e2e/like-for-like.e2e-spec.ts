import { Client } from 'pg';
import { ApiClient, STRATEGY_NAMES } from '@app/contract';
import { testStack } from './support/stack';

jest.setTimeout(120_000);

const api = () => {
  const info = testStack();
  return new ApiClient({ baseUrl: info.nginxUrl, adminToken: info.adminToken });
};
let sequence = 0;
/** `n` userIds never used before in this run. */
const users = (prefix: string, n: number) =>
  Array.from({ length: n }, () => `${prefix}-${Date.now().toString(36)}-${sequence++}`);

/** The replicas' count of sold-out answers given from memory (GET /metrics of each). */
async function fromMemory(): Promise<number> {
  const texts = await Promise.all(testStack().replicas.map(async (r) => (await fetch(`${r.url}/metrics`)).text()));
  return texts.reduce((sum, t) => sum + Number(/^oversell_sold_out_from_memory_total (\d+)/m.exec(t)?.[1] ?? 0), 0);
}

describe('same work for all', () => {
  it.each(STRATEGY_NAMES)('%s: a granted grab with workMs=300 takes at least 300 ms', async (strategy) => {
    const client = api();
    const coupon = await client.createCoupon({ stock: 1, segments: strategy === 'segmented' ? 2 : 1 });
    const answer = await client.grab(coupon.id, users('work', 1)[0], { strategy, workMs: 300 });
    // redis-stream accepts (202) rather than grants: the work is still spent before its answer.
    expect(answer.status).toBe(strategy === 'redis-stream' ? 202 : 200);
    expect(answer.answeredAt - answer.sentAt).toBeGreaterThanOrEqual(300);
  });
});

describe('sold-out answers from memory', () => {
  it.each(['db-atomic', 'watchdog', 'redis-lua', 'db-batched'])(
    '%s: once sold out every replica answers from memory, and right after a reset every replica sells again',
    async (strategy) => {
      const client = api();
      const replicas = testStack().replicas.map((r) => client.at(r.url));
      const coupon = await client.createCoupon({ stock: 1 });
      for (let round = 0; round < 5; round++) {
        const [first] = users(`memo-${round}`, 1);
        expect((await client.grab(coupon.id, first, { strategy })).status).toBe(200);
        // Each replica learns the coupon is sold out from the database once, then answers from memory.
        for (const replica of replicas) {
          for (const user of users(`learn-${round}`, 2))
            expect((await replica.grab(coupon.id, user, { strategy })).code).toBe('STOCK.SOLD_OUT');
        }
        const before = await fromMemory();
        for (const replica of replicas)
          expect((await replica.grab(coupon.id, users('again', 1)[0], { strategy })).code).toBe('STOCK.SOLD_OUT');
        expect(await fromMemory()).toBe(before + replicas.length);
        // The reset has answered: no replica may answer from memory now.
        await client.resetCoupon(coupon.id, { stock: replicas.length + 1 });
        const after = await Promise.all(
          replicas.map((replica) => replica.grab(coupon.id, users('reset', 1)[0], { strategy })),
        );
        expect(after.map((a) => a.status)).toEqual(replicas.map(() => 200));
        await client.resetCoupon(coupon.id, { stock: 1 });
      }
    },
  );

  it('a replica whose listening session drops forgets every memo and listens again', async () => {
    const client = api();
    const replicas = testStack().replicas.map((r) => client.at(r.url));
    const coupon = await client.createCoupon({ stock: 1 });
    expect((await client.grab(coupon.id, users('drop', 1)[0], { strategy: 'db-atomic' })).status).toBe(200);
    for (const replica of replicas) await replica.grab(coupon.id, users('learn', 1)[0], { strategy: 'db-atomic' });
    const db = new Client({ connectionString: testStack().databaseUrl });
    await db.connect();
    try {
      const listeners = async () =>
        (
          await db.query<{ pid: number }>(
            "SELECT pid FROM pg_stat_activity WHERE application_name = 'oversell-stock-listener'",
          )
        ).rows.map((r) => r.pid);
      const old = await listeners();
      expect(old.length).toBeGreaterThanOrEqual(replicas.length);
      await db.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [old]);
      // Each replica listens again by itself, having forgotten every memo: its next sold-out
      // answer comes from the database, the one after from memory again.
      const deadline = Date.now() + 10_000;
      let fresh: number[] = [];
      while (Date.now() < deadline && fresh.length < replicas.length) {
        await new Promise((r) => setTimeout(r, 100));
        fresh = (await listeners()).filter((pid) => !old.includes(pid));
      }
      expect(fresh.length).toBeGreaterThanOrEqual(replicas.length);
      const before = await fromMemory();
      for (const replica of replicas) {
        expect((await replica.grab(coupon.id, users('relearn', 1)[0], { strategy: 'db-atomic' })).code).toBe(
          'STOCK.SOLD_OUT',
        );
      }
      expect(await fromMemory()).toBe(before);
      for (const replica of replicas) await replica.grab(coupon.id, users('memo', 1)[0], { strategy: 'db-atomic' });
      expect(await fromMemory()).toBe(before + replicas.length);
      await client.resetCoupon(coupon.id, { stock: replicas.length });
      const after = await Promise.all(
        replicas.map((replica) => replica.grab(coupon.id, users('back', 1)[0], { strategy: 'db-atomic' })),
      );
      expect(after.map((a) => a.status)).toEqual(replicas.map(() => 200));
    } finally {
      await db.end();
    }
  });
});
