import type { Audit } from '@app/contract';
import { judgeRun } from './run-verdict';

const sold: Audit = {
  initialStock: 10,
  stock: 0,
  grants: 10,
  oversold: 0,
  lostUpdates: 0,
  maxConcurrentHolders: 1,
  statements: 10,
};
const answers = { 'api-1': { '200': 6, '409 STOCK.SOLD_OUT': 5 }, 'api-2': { '200': 4, '409 GRANT.DUPLICATE': 1 } };

describe('judgeRun', () => {
  it('calls a run exact when it sold the stock once, with one holder at a time', () => {
    expect(judgeRun('watchdog', sold, answers)).toEqual({ exact: true, wrongs: [] });
  });

  it('is wrong when a buyer was told sold out while stock remained (an undersell)', () => {
    const left = { ...sold, stock: 2, grants: 8 };
    const few = { 'api-1': { '200': 8, '409 STOCK.SOLD_OUT': 1 } };
    expect(judgeRun('db-atomic', left, few)).toEqual({
      exact: false,
      wrongs: ['undersold: 2 left while 1 buyer(s) were turned away'],
    });
    // Fewer buyers than stock, all served: stock left is no undersell.
    expect(judgeRun('db-atomic', left, { 'api-1': { '200': 8 } }).exact).toBe(true);
    // An accepted order (202) is served too: its grant is written later.
    expect(judgeRun('redis-stream', left, { 'api-1': { '202': 8 } }).exact).toBe(true);
  });

  it('is wrong with two holders under a single lock, not under a lock-free strategy', () => {
    const two = { ...sold, maxConcurrentHolders: 2 };
    expect(judgeRun('synchronized', two, answers).wrongs).toEqual(['2 holders at once under one lock']);
    expect(judgeRun('db-for-update', two, answers).exact).toBe(false);
    expect(judgeRun('db-atomic', two, answers).exact).toBe(true);
  });

  it('is wrong when accepted orders ended without a grant, however the audit adds up', () => {
    // Redis restarted without its file: 3 of 8 accepted orders gone, their units back in the stock of record.
    const left = { ...sold, stock: 5, grants: 5 };
    const accepted = { 'api-1': { '202': 8 } };
    expect(judgeRun('redis-stream', left, accepted, { accepted: 8, withoutGrant: 3, drained: true })).toEqual({
      exact: false,
      wrongs: ['3 of 8 accepted orders ended without a grant'],
    });
    expect(judgeRun('redis-stream', left, accepted, { accepted: 8, withoutGrant: 0, drained: false }).wrongs).toEqual([
      'orders still waiting when the wait for them ran out',
    ]);
    const kept = { ...sold, stock: 2, grants: 8 };
    expect(judgeRun('redis-stream', kept, accepted, { accepted: 8, withoutGrant: 0, drained: true }).exact).toBe(true);
  });

  it('names an oversell and lost updates', () => {
    const broken = { ...sold, grants: 12, oversold: 2, lostUpdates: 12, stock: 10 };
    expect(judgeRun('none', broken, answers).wrongs).toEqual(['oversold 2', 'lost updates 12']);
  });
});
