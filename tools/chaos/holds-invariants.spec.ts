import { checkHoldInvariants, withinContract, type HoldsObserved } from './holds-invariants';
import { failedNames } from './check.fixture';

// Four holds: one confirmed, one refused as expired, one whose confirm died with the killed
// replica after its commit (a grant the buyer learns of by asking), one left to expire.
const healthy: HoldsObserved = {
  audit: {
    initialStock: 4,
    stock: 2,
    grants: 2,
    oversold: 0,
    lostUpdates: 0,
    maxConcurrentHolders: 1,
    statements: 2,
    held: 0,
    confirmed: 2,
    expired: 2,
    cancelled: 0,
  },
  outcomes: { twoOutcomes: 0, returnedTwice: 0, granted: new Set(['1', '3']) },
  holds: [
    { holdId: '1', userId: 'a', confirm: { status: 200 } },
    { holdId: '2', userId: 'b', confirm: { status: 409, code: 'HOLD.EXPIRED' } },
    { holdId: '3', userId: 'c', confirm: { status: 0, code: 'ECONNRESET' } },
    { holdId: '4', userId: 'd' },
  ],
  lookups: [true, false, true, false],
  killsReplica: true,
  faultMet: { count: 1, what: 'confirms left without an answer by the kill' },
};

const failed = (o: HoldsObserved) => failedNames(checkHoldInvariants(o));

describe('checkHoldInvariants', () => {
  it('passes a run that kept every invariant (an unanswered confirm may have become a grant)', () => {
    expect(failed(healthy)).toEqual([]);
  });

  it.each<[string, Partial<HoldsObserved>]>([
    ['no hold held at the end', { audit: { ...healthy.audit, held: 1, stock: 1 } }],
    ['stock + held + confirmed = initial stock', { audit: { ...healthy.audit, stock: 3 } }],
    ['no hold with two outcomes', { outcomes: { ...healthy.outcomes, twoOutcomes: 1 } }],
    ['no unit returned twice', { outcomes: { ...healthy.outcomes, returnedTwice: 1 } }],
    [
      'every confirm answered 200 is a grant in the database',
      {
        outcomes: { ...healthy.outcomes, granted: new Set(['3']) },
        lookups: [false, false, true, false],
      },
    ],
    ["every buyer's lookup agrees with the database", { lookups: [true, false, false, false] }],
    [
      'every confirm answered within the contract',
      { holds: [...healthy.holds.slice(0, 3), { holdId: '4', userId: 'd', confirm: { status: 500 } }] },
    ],
    ['the fault met the holds', { faultMet: { count: 0, what: 'confirms left without an answer by the kill' } }],
  ])('fails "%s" alone when it is broken', (name, over) => {
    expect(failed({ ...healthy, ...over })).toEqual([name]);
  });

  it('excuses no answer only where a replica was killed', () => {
    expect(failed({ ...healthy, killsReplica: false })).toEqual(['every confirm answered within the contract']);
  });
});

describe('withinContract', () => {
  it.each([
    [200, undefined, false, true],
    [409, 'HOLD.EXPIRED', false, true],
    [503, 'DEPENDENCY.UNAVAILABLE', false, true],
    [503, undefined, false, false],
    [409, 'HOLD.CANCELLED', false, false], // the run cancels no hold
    [409, 'GRANT.DUPLICATE', false, false], // each hold is its own buyer's
    [409, 'STOCK.SOLD_OUT', false, false],
    [503, 'LOCK.LOST', false, false],
    [500, undefined, true, false],
    [502, undefined, false, false],
    [502, undefined, true, true],
    [0, 'ECONNRESET', true, true],
    [0, 'TimeoutError', false, false],
  ])('%i %s (replica killed: %s) → %s', (status, code, killsReplica, ok) => {
    expect(withinContract(status, code, killsReplica)).toBe(ok);
  });
});
