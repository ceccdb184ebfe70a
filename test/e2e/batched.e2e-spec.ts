import { Client } from 'pg';
import { ApiClient, type GrabAnswer } from '@app/contract';
import { testStack } from './support/stack';

jest.setTimeout(120_000);

const STRATEGY = 'db-batched';
let sequence = 0;
const user = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${sequence++}`;
const clients = () => {
  const info = testStack();
  const nginx = new ApiClient({ baseUrl: info.nginxUrl, adminToken: info.adminToken, timeoutMs: 60_000 });
  return { info, nginx, replicas: info.replicas.map((r) => nginx.at(r.url)) };
};
const tally = (answers: GrabAnswer[]) => {
  const counts: Record<string, number> = {};
  for (const a of answers) {
    const key = a.status === 200 ? '200' : `${a.status} ${a.code}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
};

/** Grants per batch of the coupon, from the database: how the statements were really shared. */
async function batchSizes(couponId: number): Promise<number[]> {
  const db = new Client({ connectionString: testStack().databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: number }>(
      'SELECT COUNT(*)::int AS n FROM grants WHERE coupon_id = $1 GROUP BY batch_id ORDER BY n DESC',
      [couponId],
    );
    return rows.map((r) => r.n);
  } finally {
    await db.end();
  }
}

describe('db-batched with hostile input, across three replicas', () => {
  it('one statement grants many: 400 buyers for 100 units through nginx, exact, fewer statements than grants', async () => {
    const { nginx } = clients();
    const coupon = await nginx.createCoupon({ stock: 100 });
    const answers = await Promise.all(
      Array.from({ length: 400 }, () => nginx.grab(coupon.id, user('many'), { strategy: STRATEGY })),
    );
    expect(tally(answers)).toEqual({ '200': 100, '409 STOCK.SOLD_OUT': 300 });
    const audit = await nginx.audit(coupon.id);
    expect(audit).toMatchObject({ initialStock: 100, stock: 0, grants: 100, oversold: 0, lostUpdates: 0 });
    expect(audit.statements).toBeLessThan(100);
    const sizes = await batchSizes(coupon.id);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(100);
    expect(sizes.length).toBe(audit.statements);
    expect(sizes[0]).toBeGreaterThan(1);
  });

  it('the same user many times at once on one replica: one grant, every other answer GRANT.DUPLICATE with it', async () => {
    const { nginx, replicas } = clients();
    const coupon = await nginx.createCoupon({ stock: 50 });
    const buyer = user('twice');
    // A first grab keeps the statement busy while the rest queue behind it, so they share batches.
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => replicas[0].grab(coupon.id, buyer, { strategy: STRATEGY })),
    );
    expect(tally(answers)).toEqual({ '200': 1, '409 GRANT.DUPLICATE': 29 });
    const stored = await nginx.grant(coupon.id, buyer);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body?.grant).toEqual(stored);
    expect(await nginx.audit(coupon.id)).toMatchObject({ grants: 1, stock: 49, oversold: 0, lostUpdates: 0 });
  });

  it('the same users on all three replicas at once: each granted once, whichever replica commits first', async () => {
    const { nginx, replicas } = clients();
    const coupon = await nginx.createCoupon({ stock: 1000 });
    const buyers = Array.from({ length: 60 }, () => user('everywhere'));
    const answers = await Promise.all(
      buyers.flatMap((b) => replicas.map((r) => r.grab(coupon.id, b, { strategy: STRATEGY }))),
    );
    expect(tally(answers)).toEqual({ '200': 60, '409 GRANT.DUPLICATE': 120 });
    for (const b of buyers) expect(answers.filter((a) => a.userId === b && a.status === 200)).toHaveLength(1);
    expect(await nginx.audit(coupon.id)).toMatchObject({ grants: 60, stock: 940, oversold: 0, lostUpdates: 0 });
  });

  it('a batch that straddles sold out: holders already granted, newcomers beyond the stock, repeats', async () => {
    const { nginx, replicas } = clients();
    const coupon = await nginx.createCoupon({ stock: 5 });
    const early = [user('early'), user('early')];
    for (const b of early) expect((await replicas[1].grab(coupon.id, b, { strategy: STRATEGY })).status).toBe(200);
    const newcomers = Array.from({ length: 20 }, () => user('late'));
    const requests = [...early, ...newcomers, ...newcomers.slice(0, 5)];
    const answers = await Promise.all(requests.map((b) => replicas[1].grab(coupon.id, b, { strategy: STRATEGY })));
    const counts = tally(answers);
    expect(counts['200']).toBe(3);
    // Never sold out while stock is left: every unit went before any sold-out answer could be true.
    expect(await nginx.audit(coupon.id)).toMatchObject({ grants: 5, stock: 0, oversold: 0, lostUpdates: 0 });
    for (const b of early) expect(answers.find((a) => a.userId === b)?.code).toBe('GRANT.DUPLICATE');
    const granted = new Set(answers.filter((a) => a.status === 200).map((a) => a.userId));
    expect(granted.size).toBe(3);
    expect((counts['409 STOCK.SOLD_OUT'] ?? 0) + (counts['409 GRANT.DUPLICATE'] ?? 0)).toBe(requests.length - 3);
  });

  it('answers only after the commit: the moment a 200 arrives, its grant is already stored', async () => {
    const { nginx } = clients();
    const coupon = await nginx.createCoupon({ stock: 40 });
    const checks: Promise<unknown>[] = [];
    await Promise.all(
      Array.from({ length: 80 }, () =>
        nginx.grab(coupon.id, user('commit'), { strategy: STRATEGY }).then((a) => {
          if (a.status === 200) checks.push(nginx.grant(coupon.id, a.userId));
        }),
      ),
    );
    expect(checks).toHaveLength(40);
    await expect(Promise.all(checks)).resolves.toHaveLength(40);
  });
});
