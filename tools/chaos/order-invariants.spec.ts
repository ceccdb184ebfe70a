import { checkInvariants, type Observed } from './invariants';
import { orderLossWindowMs, type OrderObservation } from './order-invariants';
import type { Verdict } from './outcome';
import { failedNames } from './check.fixture';

// A redis-stream run: a, b and c accepted (202), d resolved by retry; all four granted once drained.
const orders: OrderObservation = {
  accepted: [
    { userId: 'a', sentAtMs: 100, answeredAtMs: 140 },
    { userId: 'b', sentAtMs: 3000, answeredAtMs: 3050 },
    { userId: 'c', sentAtMs: 9000, answeredAtMs: 9100 },
  ],
  stream: { drained: true, counter: 6, deadLettered: 0 },
};
const drained: Observed = {
  fault: 'postgres-restart',
  strategy: 'redis-stream',
  audit: { initialStock: 10, stock: 6, grants: 4, oversold: 0, lostUpdates: 0, maxConcurrentHolders: 1, statements: 2 },
  acknowledged: [],
  orders,
  grantedInDb: ['a', 'b', 'c', 'd'],
  resolvedByRetry: ['d'],
  verdicts: ['accepted', 'accepted', 'accepted', 'clear'],
  soldOutAnswers: 0,
  maxLatencyMs: 900,
  timeoutMs: 10_000,
  recovery: { sawUnhealthy: true, saw503: true, recoveryMs: 300 },
  afterRecovery: Array<Verdict>(50).fill('accepted'),
  dependencyFault: true,
  unexpectedRestarts: 0,
};

// c's order is gone: never a grant, its unit back in stock (Redis reloaded the counter from the stock of record).
const cLost: Observed = {
  ...drained,
  audit: { ...drained.audit, stock: 7, grants: 3 },
  orders: { ...orders, stream: { ...orders.stream, counter: 7 } },
  grantedInDb: ['a', 'b', 'd'],
};

const check = (o: Observed, name: string) => checkInvariants(o).find((c) => c.name === name);
const failed = (o: Observed) => failedNames(checkInvariants(o));

describe('redis-stream invariants, judged once the order stream drained', () => {
  it('pass when every 202 became a grant, the stream is empty and the counter equals the stock of record', () => {
    expect(failed(drained)).toEqual([]);
    expect(check(drained, 'every accepted order became a grant')?.detail).toBe('3 of 3 accepted orders are grants');
    expect(check(drained, 'every grant acknowledged or resolved by retry')?.detail).toBe(
      '4 stored = 0 acknowledged + 3 accepted + 1 resolved by retry',
    );
  });

  it('fail a lost accepted order, with no loss excused', () => {
    expect(failed(cLost)).toEqual([
      'every grant acknowledged or resolved by retry',
      'every accepted order became a grant',
    ]);
    expect(check(cLost, 'every accepted order became a grant')?.detail).toBe(
      '2 of 3 accepted orders are grants; lost: c',
    );
  });

  it('count an order lost with the memory of a Redis without an append-only file, accepted before the stop, as the documented loss', () => {
    const byDesign = { ...cLost, orders: { ...cLost.orders!, redisLostMemory: { atMs: 9500, windowMs: Infinity } } };
    expect(failed(byDesign)).toEqual([]);
    expect(check(byDesign, 'every accepted order became a grant')?.detail).toBe(
      '2 of 3 accepted orders are grants; 1 accepted before Redis stopped were lost with it (no append-only file: the documented loss)',
    );
  });

  it('excuse no order answered after the stop was complete: it may have gone to the restarted Redis', () => {
    const stop = (atMs: number) => ({
      ...cLost,
      orders: { ...cLost.orders!, redisLostMemory: { atMs, windowMs: Infinity } },
    });
    expect(failed(stop(9101))).toEqual([]);
    expect(failed(stop(9100))).toContain('every accepted order became a grant'); // answered at 9100
    // Sent before the stop, answered once Redis was back: not the documented loss.
    const late = { ...orders.accepted[2], answeredAtMs: 12_500 };
    const sentBefore = stop(9500);
    expect(
      failed({ ...sentBefore, orders: { ...sentBefore.orders, accepted: [...orders.accepted.slice(0, 2), late] } }),
    ).toContain('every accepted order became a grant');
  });

  it('excuse only what the window before the stop can lose', () => {
    const window = (windowMs: number) => ({
      ...cLost,
      orders: { ...cLost.orders!, redisLostMemory: { atMs: 10_100, windowMs } },
    });
    expect(failed(window(1000))).toEqual([]); // answered 9100: exactly a window before the stop
    expect(failed(window(999))).toContain('every accepted order became a grant');
    expect(failed(window(0))).toContain('every accepted order became a grant');
  });

  it('fail an order still in the stream when the wait ran out', () => {
    const waiting = { ...orders, stream: { ...orders.stream, drained: false } };
    expect(failed({ ...drained, orders: waiting })).toEqual(['order stream drained']);
  });

  it('fail a Redis counter other than the stock of record, or an absent one', () => {
    const off = (counter: number | null) => ({
      ...drained,
      orders: { ...orders, stream: { ...orders.stream, counter } },
    });
    expect(failed(off(5))).toEqual(["Redis's counter = stock of record"]);
    expect(failed(off(null))).toEqual(["Redis's counter = stock of record"]);
  });

  it('say a dead-lettered order, and fail it: it was accepted, never granted', () => {
    const dead = { ...cLost, orders: { ...cLost.orders!, stream: { ...cLost.orders!.stream, deadLettered: 1 } } };
    expect(check(dead, 'every accepted order became a grant')).toEqual({
      name: 'every accepted order became a grant',
      ok: false,
      detail: '2 of 3 accepted orders are grants, 1 dead-lettered; lost: c',
    });
  });
});

describe('orders accepted while PostgreSQL was down', () => {
  const outage = (o: Observed, fromMs: number, toMs: number) => ({
    ...o,
    orders: { ...o.orders!, databaseDown: { fromMs, toMs } },
  });
  const name = 'orders accepted while PostgreSQL was down persisted after';

  it('pass once the orders accepted during the outage are grants', () => {
    expect(check(outage(drained, 2000, 9500), name)).toEqual({
      name,
      ok: true,
      detail: '2 of 2 accepted during the outage are grants',
    });
  });

  it('fail one accepted during the outage and never persisted', () => {
    expect(failed(outage(cLost, 2000, 9500))).toContain(name);
  });

  it('fail an outage during which no order was accepted: the run did not show what it is for', () => {
    expect(check(outage(drained, 4000, 8000), name)?.ok).toBe(false);
  });
});

describe('orderLossWindowMs', () => {
  it('excuses only redis-stream through a restart of a Redis without an append-only file: all it held', () => {
    expect(orderLossWindowMs('redis-restart', 'off', 'redis-stream')).toBe(Infinity);
    // With a file, a stop of Redis alone loses nothing: everysec's second is a machine crash's.
    expect(orderLossWindowMs('redis-restart', 'always', 'redis-stream')).toBeUndefined();
    expect(orderLossWindowMs('redis-restart', 'everysec', 'redis-stream')).toBeUndefined();
    expect(orderLossWindowMs('redis-restart', 'no', 'redis-stream')).toBeUndefined();
    expect(orderLossWindowMs('redis-restart', undefined, 'redis-stream')).toBeUndefined(); // a failover, or unknown
    expect(orderLossWindowMs('postgres-restart', 'off', 'redis-stream')).toBeUndefined();
    expect(orderLossWindowMs('replica-kill', 'off', 'redis-stream')).toBeUndefined();
    expect(orderLossWindowMs('redis-restart', 'off', 'redis-lua')).toBeUndefined();
  });
});
