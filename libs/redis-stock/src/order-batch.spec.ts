import { StockUnavailableError, type StreamOrder } from '@app/stock';
import { failuresOf, GIVE_UP_REASONS, writeIsolating, type WriteOrders } from './order-batch';

const order = (n: number): StreamOrder => ({
  orderId: `${n}-0`,
  userId: `u${n}`,
  replica: 'r',
  acceptedUs: '1',
  epoch: '1',
});
const orders = Array.from({ length: 8 }, (_, i) => order(i));

/** Grants every order but `refuse` (superseded when `superseded`); fails any statement holding `poison`. */
function writer(poison: Set<string>, refuse = new Set<string>(), superseded = new Set<string>()) {
  const calls: string[][] = [];
  const write: WriteOrders = (part) => {
    calls.push(part.map((o) => o.userId));
    if (part.some((o) => poison.has(o.userId)))
      return Promise.reject(Object.assign(new Error('value too long'), { code: '22001' }));
    const granted = new Set(part.filter((o) => !refuse.has(o.userId)).map((o) => o.orderId));
    const refused = new Map(
      part
        .filter((o) => refuse.has(o.userId))
        .map((o) => [o.orderId, superseded.has(o.userId) ? ('superseded' as const) : ('sold-out' as const)]),
    );
    return Promise.resolve({ granted, inserted: granted.size, refused });
  };
  return { write, calls };
}

describe('writeIsolating', () => {
  it('one statement when the batch goes through; a refused order is told apart from a failed one, with its reason', async () => {
    const { write, calls } = writer(new Set(), new Set(['u2', 'u3']), new Set(['u3']));
    const outcome = await writeIsolating(write, orders, () => true);
    expect(calls).toHaveLength(1);
    expect([outcome.granted.size, outcome.inserted, [...outcome.refused]]).toEqual([
      6,
      6,
      [
        ['2-0', 'sold-out'],
        ['3-0', 'superseded'],
      ],
    ]);
    expect(failuresOf(outcome, ['9-0'], 5)).toEqual([
      { orderId: '2-0', limit: 1, reason: GIVE_UP_REASONS['sold-out'], refusal: 'sold-out' },
      { orderId: '3-0', limit: 1, reason: GIVE_UP_REASONS.superseded, refusal: 'superseded' },
      { orderId: '9-0', limit: 1, reason: 'its stream entry is malformed' },
    ]);
  });

  it('splits a failed batch down to the poison order: the 7 others granted, only it failed', async () => {
    const { write, calls } = writer(new Set(['u5']));
    const outcome = await writeIsolating(
      write,
      orders,
      () => true,
      () => 0.9,
    );
    expect(outcome.granted.size).toBe(7);
    expect([...outcome.failed]).toEqual([['5-0', 'value too long']]);
    expect(failuresOf(outcome, [], 5)).toEqual([{ orderId: '5-0', limit: 5, reason: 'value too long' }]);
    expect(calls).toHaveLength(7); // 8, 4+4, 2+2, 1+1
  });

  it('a slow or unreachable database stops the batch: nothing counted against an order', async () => {
    const write: WriteOrders = () => Promise.reject(new StockUnavailableError());
    const outcome = await writeIsolating(write, orders, () => true);
    expect(outcome.unavailable).toBeInstanceOf(StockUnavailableError);
    expect([outcome.granted.size, outcome.refused.size, outcome.failed.size]).toEqual([0, 0, 0]);
  });

  it.each(['53100', '25006', '40P01', '57P01'])(
    'a database-wide error (SQLSTATE %s) stops the batch: no split, nothing counted against an order',
    async (code) => {
      let statements = 0;
      const write: WriteOrders = () => {
        statements += 1;
        return Promise.reject(Object.assign(new Error(`database error ${code}`), { code }));
      };
      const outcome = await writeIsolating(write, orders, () => true);
      expect([statements, outcome.failed.size, outcome.refused.size]).toEqual([1, 0, 0]);
      expect(outcome.unavailable).toBeInstanceOf(StockUnavailableError);
      expect(failuresOf(outcome, [], 5)).toEqual([]);
    },
  );

  it('starts no statement once mayStart says no: the orders left stay unwritten', async () => {
    const { write, calls } = writer(new Set(['u0']));
    let starts = 2;
    const outcome = await writeIsolating(
      write,
      orders,
      () => starts-- > 0,
      () => 0.9,
    );
    expect(calls).toEqual([orders.map((o) => o.userId), ['u0', 'u1', 'u2', 'u3']]);
    expect([outcome.granted.size, outcome.failed.size]).toEqual([0, 0]);
  });
});
