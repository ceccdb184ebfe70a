import { startPrivatePostgres, testPort, type RunningChild } from '../../../../test/postgres/private-postgres';
import { StockDatabase } from '../database/stock-database';
import { StaleFenceError } from '../stock.errors';
import type { SectionHooks } from './deduction.types';
import { readModifyWrite } from './read-modify-write';

// Two holders of one coupon's lock on a real PostgreSQL, each section held after its read (in its
// work) until the spec lets it write: the orders a lease running out allows. Stock 1 each time.

let server: RunningChild | undefined;
let db: StockDatabase;

beforeAll(async () => {
  const pg = await startPrivatePostgres(testPort(26740));
  server = pg.server;
  db = new StockDatabase({ databaseUrl: pg.url, poolSize: 4 });
}, 60_000);

afterAll(async () => {
  await db?.close();
  await server?.stop('SIGINT', 10_000);
});

async function couponOfOne(): Promise<number> {
  const [coupon] = await db.query<{ id: number }>(
    "INSERT INTO coupons (name, initial_stock, segments) VALUES ('fenced-section', 1, 1) RETURNING id",
  );
  await db.query('INSERT INTO stock_segments (coupon_id, idx, stock, initial_stock) VALUES ($1, 0, 1, 1)', [coupon.id]);
  return coupon.id;
}

/** A section that reads, then waits in its work: `hasRead` once it has read, `write()` lets it go on. */
function heldSection(couponId: number, userId: string, fenceToken?: number) {
  let read!: () => void;
  const hasRead = new Promise<void>((resolve) => (read = resolve));
  let go!: () => void;
  const mayWrite = new Promise<void>((resolve) => (go = resolve));
  const hooks: SectionHooks = {
    work: () => (read(), mayWrite),
    ...(fenceToken !== undefined && { fenceToken: Promise.resolve(fenceToken) }),
  };
  const strategy = fenceToken === undefined ? 'none' : 'fenced';
  const result = readModifyWrite(db.query, { couponId, userId, strategy, replica: 'api-1' }, hooks);
  result.catch(() => undefined); // each test awaits it where it means to
  return { hasRead, result, write: () => (go(), result) };
}

async function audit(couponId: number) {
  const [row] = await db.query<{ stock: number; grants: number }>(
    `SELECT (SELECT SUM(stock) FROM stock_segments WHERE coupon_id = $1)::int AS stock,
            (SELECT COUNT(*) FROM grants WHERE coupon_id = $1)::int AS grants`,
    [couponId],
  );
  return row;
}

describe('fenced read-modify-write on PostgreSQL', () => {
  it('the stale holder writes first, after the newer holder read: refused, and the unit sells once', async () => {
    const coupon = await couponOfOne();
    const stale = heldSection(coupon, 'buyer-1', 1);
    await stale.hasRead;
    // Its lease runs out: buyer 2 takes the lock with token 2 and reads the same unit.
    const newer = heldSection(coupon, 'buyer-2', 2);
    await newer.hasRead;
    await expect(stale.write()).rejects.toBeInstanceOf(StaleFenceError);
    await expect(newer.write()).resolves.toEqual({ segment: 0, remaining: 0 });
    expect(await audit(coupon)).toEqual({ stock: 0, grants: 1 });
  });

  it('the newer holder writes first (the frozen holder comes back late): the stale write is refused', async () => {
    const coupon = await couponOfOne();
    const stale = heldSection(coupon, 'buyer-1', 1);
    await stale.hasRead;
    const newer = heldSection(coupon, 'buyer-2', 2);
    await expect(newer.write()).resolves.toEqual({ segment: 0, remaining: 0 });
    await expect(stale.write()).rejects.toBeInstanceOf(StaleFenceError);
    expect(await audit(coupon)).toEqual({ stock: 0, grants: 1 });
  });

  it('a stale holder that reads after the newer one is refused at the read, before any work', async () => {
    const coupon = await couponOfOne();
    const newer = heldSection(coupon, 'buyer-2', 2);
    await newer.hasRead;
    const stale = heldSection(coupon, 'buyer-1', 1);
    const first = await Promise.race([stale.hasRead.then(() => 'it read'), stale.result.catch((e: unknown) => e)]);
    expect(first).toBeInstanceOf(StaleFenceError);
    await expect(newer.write()).resolves.toEqual({ segment: 0, remaining: 0 });
    expect(await audit(coupon)).toEqual({ stock: 0, grants: 1 });
  });

  it('sold out is not stale: a holder with a newer token finds nothing left and answers null', async () => {
    const coupon = await couponOfOne();
    await heldSection(coupon, 'buyer-1', 1).write();
    await expect(heldSection(coupon, 'buyer-2', 2).result).resolves.toBeNull();
  });

  it("without a token the seeds' bug stays: both read 1, both write 0, two grants", async () => {
    const coupon = await couponOfOne();
    const first = heldSection(coupon, 'buyer-1');
    const second = heldSection(coupon, 'buyer-2');
    await Promise.all([first.hasRead, second.hasRead]);
    await expect(first.write()).resolves.toEqual({ segment: 0, remaining: 0 });
    await expect(second.write()).resolves.toEqual({ segment: 0, remaining: 0 });
    expect(await audit(coupon)).toEqual({ stock: 0, grants: 2 });
  });
});
